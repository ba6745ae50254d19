/**
 * @module memory/recall/supersede-chain
 * Recall follows the supersede link. Recall ranks active and superseded memories alike; when a
 * match is a superseded memory, the answer is what replaced it now (its `superseded_by`, followed to
 * the end of the chain), carrying the older fact as its `update` ("updated 3 Nov; was: …"); a
 * superseded memory whose successor is gone or out of the caller's sight answers nothing. A question
 * about the past ("where did I live before?", 「我以前住在哪」, "in 2024") answers from the replaced
 * facts themselves, oldest first, then the rest as usual. A store without superseded memories is
 * untouched: no read, no change of order (LoCoMo's ranking stays what it was).
 * The boundary: it reads rows by id through the MemoryRepo port; it decides nothing about writes.
 */
import type { MemoryDeps } from "../service-deps";
import type { TimeWindow } from "../text/time-window";
import { queryTokens } from "../text/tokenize";
import type { Memory, Scope } from "../types";
import type { FusedCandidate } from "./fuse-scores";
import type { QueryAnalysis } from "./query-analysis";
import { passesRecallFilter, type RecallFilter } from "./recall-filters";

/** Links followed from one superseded memory; a longer chain (a loop from a broken import) stops there. */
const MAX_HOPS = 8;

/**
 * Words that ask about the past: "before", "used to", "previously", my ex…; Chinese 以前, 之前, 原来, 曾经.
 * "before" or 之前 a moment of the day is a habit's time, not the past ("what do I do before breakfast?",
 * 「我睡觉之前做什么」).
 */
const PAST_EN =
  /\b(?:before(?!\s+(?:breakfast|lunch|dinner|bed|bedtime|work|school|class|sleep|sleeping|going to bed|meals?|i go|i leave|leaving|heading))|did (?:i|we) (?:leave|move away from|move from)|(?:moved|relocated) (?:away )?from|previous|last (?:job|employer|company|place|flat|apartment|home|address|partner|girlfriend|boyfriend)|previously|formerly|used to|did (?:i|we|you|the user) use to|in the past|earlier|prior|ex|former|old (?:address|job|place|home|number|phone|email|car|school|flat|apartment))\b/;
const PAST_ZH =
  /以前|上一份|上一个|上份|前一份|(?<!睡觉|睡|上班|下班|吃饭|饭|早饭|早餐|午饭|晚饭|出门|上学|起床)之前|原来|原先|过去|曾经|从前|当初|前任|老地址|旧/;

/** The query asks about a time before now: a past word, or a named period that has ended. */
export function asksAboutPast(query: QueryAnalysis, now: number): boolean {
  const text = query.text.toLowerCase();
  return PAST_EN.test(text) || PAST_ZH.test(text) || pastWindows(query, now).length > 0;
}

function pastWindows(query: QueryAnalysis, now: number): Extract<TimeWindow, { kind: "span" }>[] {
  return query.windows.filter((w): w is Extract<TimeWindow, { kind: "span" }> => w.kind === "span" && w.to <= now);
}

/** When a memory started to hold: the day it names, else when it was saved. */
const startOf = (m: Memory) => m.eventTime ?? m.createdAt;

export interface ChainOptions {
  query: QueryAnalysis;
  filter: RecallFilter;
  now: number;
}

/**
 * The ranked candidates with every superseded one answered through its chain (see the module
 * header). `ranked` is best first and may hold superseded rows; the answer holds them only for a
 * question about the past or with `include_superseded`.
 */
export async function followSupersedeChain(
  deps: MemoryDeps,
  scope: Scope,
  ranked: FusedCandidate[],
  options: ChainOptions,
): Promise<FusedCandidate[]> {
  if (!ranked.some((c) => c.memory.status === "superseded")) return ranked;
  const rows = await chainRows(deps, scope, ranked);
  const past = asksAboutPast(options.query, options.now);
  const { includeSuperseded } = options.filter;
  const current = new Map<string, FusedCandidate>();
  const replaced: FusedCandidate[] = [];
  const keep = (c: FusedCandidate) => {
    const seen = current.get(c.memory.id);
    if (!seen) current.set(c.memory.id, c);
    else if (c.score > seen.score || (!seen.update && c.update))
      current.set(c.memory.id, { ...seen, score: Math.max(seen.score, c.score), update: seen.update ?? c.update });
  };
  const queryWords = new Set(options.query.tokens);
  // Where each answer stands: the place of the best-placed candidate that led to it. The answer keeps
  // `ranked`'s order (an area's statements put in the order told, topic-channel.ts), not a re-sort by score.
  const place = new Map<string, number>();
  const placeAt = (id: string, i: number) => place.set(id, Math.min(place.get(id) ?? i, i));
  for (const [i, c] of ranked.entries()) {
    if (c.memory.status !== "superseded") {
      placeAt(c.memory.id, i);
      keep(c);
      continue;
    }
    const chain = walk(c.memory, rows);
    if (past || includeSuperseded) {
      const facts = pastFacts(c, chain, options, past);
      for (const f of facts) placeAt(f.memory.id, i);
      replaced.push(...facts);
    }
    if (explainedByRemainder(c.memory, ranked, queryWords)) continue;
    const last = chain[chain.length - 1];
    if (!last || last.status !== "active" || !passesRecallFilter(last, { ...options.filter, includeSuperseded: false }))
      continue;
    // A consolidated fold names what it absorbed in derived_from: the same fact, not an update.
    const folded = last.derivedFrom.includes(c.memory.id);
    placeAt(last.id, i);
    keep({
      memory: last,
      score: c.score,
      ...(folded
        ? {}
        : { update: { replacedId: c.memory.id, replacedContent: c.memory.content, replacedAt: last.createdAt } }),
    });
  }
  const byPlace = (a: FusedCandidate, b: FusedCandidate) =>
    (place.get(a.memory.id) ?? 0) - (place.get(b.memory.id) ?? 0) || b.score - a.score;
  const rest = [...current.values()].sort(byPlace);
  const older = dedupe(replaced).filter((c) => !current.has(c.memory.id));
  if (past) return [...older.sort((a, b) => startOf(a.memory) - startOf(b.memory)), ...rest];
  return [...rest, ...older].sort(byPlace);
}

/**
 * The superseded members of a chain a question about the past may answer with: the matched one and
 * those after it, each while it held ([its start, its successor's start)), inside a named period
 * when the query names one. With `include_superseded` and no past question, the matched one only.
 */
function pastFacts(c: FusedCandidate, chain: Memory[], options: ChainOptions, past: boolean): FusedCandidate[] {
  if (!past) return [c];
  const windows = pastWindows(options.query, options.now);
  const members = [c.memory, ...chain.filter((m) => m.status === "superseded")];
  return members
    .filter((m, i) => {
      if (windows.length === 0) return true;
      const next = i + 1 < members.length ? members[i + 1] : chain.find((x) => x.status === "active");
      const end = next ? startOf(next) : m.updatedAt;
      return windows.some((w) => startOf(m) < w.to && end > w.from);
    })
    .filter((m) => passesRecallFilter(m, { ...options.filter, includeSuperseded: true }))
    .map((m) => ({ memory: m, score: c.score }));
}

function dedupe(list: FusedCandidate[]): FusedCandidate[] {
  const byId = new Map<string, FusedCandidate>();
  for (const c of list) if (!byId.has(c.memory.id)) byId.set(c.memory.id, c);
  return [...byId.values()];
}

/**
 * The superseded memory's words the query matched are all in a remainder of it that recall found
 * too ("what do I teach?" matched "I live in Lisbon and teach yoga", replaced by "I moved to Porto",
 * kept as "I teach yoga"): the remainder answers, not the fact that replaced the other clause.
 */
function explainedByRemainder(old: Memory, ranked: FusedCandidate[], queryWords: Set<string>): boolean {
  const matched = queryTokens(old.content).filter((t) => queryWords.has(t));
  return ranked.some((c) => {
    if (c.memory.status !== "active" || !c.memory.derivedFrom.includes(old.id)) return false;
    const kept = new Set(queryTokens(c.memory.content));
    return matched.every((t) => kept.has(t));
  });
}

/** The memories after `start` on its supersede chain, in order (the last one is current when active). */
function walk(start: Memory, rows: Map<string, Memory>): Memory[] {
  const chain: Memory[] = [];
  const seen = new Set([start.id]);
  let next = start.supersededBy;
  while (next !== null && !seen.has(next) && chain.length < MAX_HOPS) {
    const row = rows.get(next);
    if (!row) break;
    chain.push(row);
    seen.add(next);
    next = row.status === "superseded" ? row.supersededBy : null;
  }
  return chain;
}

/** The rows of every chain the candidates start, read by id a link at a time (one read per hop; mostly one). */
async function chainRows(deps: MemoryDeps, scope: Scope, ranked: FusedCandidate[]): Promise<Map<string, Memory>> {
  const rows = new Map(ranked.map((c) => [c.memory.id, c.memory]));
  const visited = new Set<string>();
  let frontier = ranked.filter((c) => c.memory.status === "superseded").map((c) => c.memory);
  for (let hop = 0; hop < MAX_HOPS && frontier.length > 0; hop++) {
    for (const m of frontier) visited.add(m.id);
    const next: Memory[] = [];
    const wanted = new Set<string>();
    for (const m of frontier) {
      const id = m.supersededBy;
      if (id === null || visited.has(id)) continue;
      const row = rows.get(id);
      if (!row) wanted.add(id);
      else if (row.status === "superseded") next.push(row);
    }
    const fetched = wanted.size > 0 ? await deps.repo.getMany(scope, [...wanted]) : [];
    for (const m of fetched) rows.set(m.id, m);
    frontier = [...next, ...fetched.filter((m) => m.status === "superseded")];
  }
  return rows;
}
