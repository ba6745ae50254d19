/**
 * @module memory/text/excerpt
 * The part of a memory a query is about: for a memory longer than a budget, the clauses that share
 * the most search tokens with the query (and their neighbours while they fit), cut with "…", the
 * speaker label kept. What the first recalls of a session show (shownText in
 * recall/progressive-injection.ts); the whole text is one search with `limit` away. Pure and linear: one pass over the characters to
 * split, one tokenisation per clause, no regular expression of its own.
 */
import { splitSpeaker } from "./speaker";
import { estimateTokens, isWide } from "./token-estimate";
import { indexTokens } from "./tokenize";

export const ELLIPSIS = "…";

/** Clause ends: sentence and clause punctuation, ASCII ones only before a space (3.5, 10:30, e.g. stay whole). */
const ASCII_ENDS = new Set([".", "!", "?", ";", ",", ":"]);
const WIDE_ENDS = new Set(["。", "！", "？", "；", "，", "、", "：", "\n"]);
const SPACES = new Set([" ", "\t", "\n", "\r", "\u00a0", "\u3000"]);

/** `text` split after each clause end; every piece keeps its punctuation and trailing space. */
export function splitClauses(text: string): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < chars.length; i++) {
    const wide = WIDE_ENDS.has(chars[i]);
    if (!wide && !(ASCII_ENDS.has(chars[i]) && SPACES.has(chars[i + 1] ?? ""))) continue;
    let end = i + 1;
    while (end < chars.length && SPACES.has(chars[end])) end++;
    out.push(chars.slice(start, end).join(""));
    start = end;
    i = end - 1;
  }
  if (start < chars.length) out.push(chars.slice(start).join(""));
  return out;
}

/** How many distinct query tokens `text` contains. */
function overlap(text: string, query: ReadonlySet<string>): number {
  let n = 0;
  for (const t of new Set(indexTokens(text))) if (query.has(t)) n++;
  return n;
}

/** Index of the first highest-scoring item (0 when none scores). */
function best(scores: number[]): number {
  let at = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i] > scores[at]) at = i;
  return at;
}

/**
 * The run of pieces around the best one that fits `budget` tokens, grown one neighbour at a time
 * (the better-scoring side first, the following one on a tie: an answer tends to follow the words
 * a question repeats). Null when even the best piece does not fit.
 */
function window(pieces: string[], scores: number[], budget: number): { from: number; to: number } | null {
  const at = best(scores);
  const cost = pieces.map(estimateTokens);
  let from = at;
  let to = at + 1;
  let spent = cost[at];
  if (spent > budget) return null;
  for (;;) {
    const rightFits = to < pieces.length && spent + cost[to] <= budget;
    const leftFits = from > 0 && spent + cost[from - 1] <= budget;
    if (!rightFits && !leftFits) return { from, to };
    const takeRight = rightFits && (!leftFits || scores[to] >= scores[from - 1]);
    if (takeRight) spent += cost[to++];
    else spent += cost[--from];
  }
}

/** Words of a clause (wide characters one by one), each with the space that follows it. */
function words(clause: string): string[] {
  const out: string[] = [];
  let word = "";
  for (const c of clause) {
    const wide = isWide(c);
    if (wide && word) {
      out.push(word);
      word = "";
    }
    word += c;
    if (wide || SPACES.has(c)) {
      out.push(word);
      word = "";
    }
  }
  if (word) out.push(word);
  return out;
}

/** `text` with an ellipsis where it was cut, spaces at the cuts trimmed. */
function marked(text: string, cutBefore: boolean, cutAfter: boolean): string {
  const body = text.trim();
  return `${cutBefore ? ELLIPSIS : ""}${body}${cutAfter ? ELLIPSIS : ""}`;
}

/** The best-matching stretch of `pieces` within `budget`, or null when even one piece is too long. */
function excerptOf(pieces: string[], query: ReadonlySet<string>, budget: number): string | null {
  const scores = pieces.map((p) => overlap(p, query));
  const span = window(pieces, scores, budget);
  if (!span) return null;
  return marked(pieces.slice(span.from, span.to).join(""), span.from > 0, span.to < pieces.length);
}

/**
 * `content` as it fits `maxTokens` (estimated; the ellipses within it): unchanged when it fits,
 * else the clauses the query is about, else (one long clause) the words around its best match,
 * with the speaker label ("Caroline: ") in front either way.
 */
export function queryExcerpt(content: string, queryTokens: readonly string[], maxTokens: number): string {
  if (estimateTokens(content) <= maxTokens) return content;
  const turn = splitSpeaker(content);
  const label = turn ? content.slice(0, content.indexOf(turn.body)) : "";
  const body = turn ? turn.body : content.trim();
  const budget = Math.max(1, maxTokens - estimateTokens(label) - 1);
  const query = new Set(queryTokens);
  const clauses = splitClauses(body);
  const fromClauses = excerptOf(clauses, query, budget);
  if (fromClauses !== null) return label + fromClauses;
  const clause = clauses[best(clauses.map((c) => overlap(c, query)))];
  const at = clauses.indexOf(clause);
  const inner = excerptOf(words(clause), query, budget) ?? ELLIPSIS;
  const before = at > 0 && !inner.startsWith(ELLIPSIS) ? ELLIPSIS : "";
  const after = at < clauses.length - 1 && !inner.endsWith(ELLIPSIS) ? ELLIPSIS : "";
  return label + before + inner + after;
}

/** Whitespace runs (one class, one quantifier: linear). */
const WHITESPACE_RUN = /\s+/g;

/**
 * A short title for a memory: its opening clauses within `maxTokens` (estimated), cut with "…",
 * on one line. What clients that list sources (ChatGPT's search results) show for it.
 */
export function titleExcerpt(content: string, maxTokens: number): string {
  return queryExcerpt(content.replace(WHITESPACE_RUN, " ").trim(), [], maxTokens);
}
