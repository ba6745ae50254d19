/**
 * @module scripts/lib/bench-reach
 * How far better ranking of words alone could take a run. For every evidence memory that recall left
 * out of its first 10, whether it shares a word with the question, by the BM25 baseline's tokens
 * (bench-bm25.ts, independent of the product's tokenizer) with the speakers' names left out (every
 * turn of a speaker begins with the name, so the name tells nothing about which turn) — in its own
 * text, or only in its neighbour context (the turns up to `radius` before and after it in the same
 * conversation, which recall's full-text row indexes too: memory/import/conversation-context.ts).
 * Then the R@10 a run would reach if every missed evidence memory that shares a word either way were
 * found as well, on top of the hits it has: a generous bound for any channel that matches words
 * (BM25 over the memory and its neighbours, the hash embedder's words and character n-grams, entity
 * names), since it assumes perfect ranking and that no hit is displaced. Evidence that shares no word
 * either way needs meaning to be found. Pure.
 */
import { baselineTokens } from "./bench-bm25.ts";
import type { BenchMemory } from "./bench-data.ts";

export interface ReachQuestion {
  question: string;
  category: string;
  /** Evidence memories, external ids. */
  evidence: string[];
  /** What recall returned, external ids, best first. */
  ranked: string[];
}

export interface Reach {
  questions: number;
  /** Mean R@10 of the run itself. */
  recall10: number;
  /** Mean R@10 if every missed evidence memory sharing a word with its question were found too. */
  wordBound10: number;
  /** Evidence memories outside the first 10 that share a word with the question in their own text. */
  missedSharing: number;
  /** … that share one only through their neighbour context. */
  missedNeighbours: number;
  /** Evidence memories outside the first 10 that share none. */
  missedNone: number;
}

/** A speaker label that begins a memory ("Caroline: …"), at most 40 characters and no colon. */
const SPEAKER_LABEL = /^([^:\n]{1,40}):\s/;

/** The speaker label a memory begins with ("Caroline" of "Caroline: …"), if any. */
export const speakerLabel = (content: string): string | undefined => SPEAKER_LABEL.exec(content)?.[1];

/** The baseline tokens of every speaker label the user's memories begin with. */
export function speakerTokens(memories: BenchMemory[]): Set<string> {
  const out = new Set<string>();
  for (const m of memories) {
    const label = speakerLabel(m.content);
    if (label !== undefined) for (const t of baselineTokens(label)) out.add(t);
  }
  return out;
}

export interface ReachTotals {
  overall: Reach;
  byCategory: Record<string, Reach>;
}

const empty = (): Reach => ({
  questions: 0,
  recall10: 0,
  wordBound10: 0,
  missedSharing: 0,
  missedNeighbours: 0,
  missedNone: 0,
});

export const newReach = (): ReachTotals => ({ overall: empty(), byCategory: {} });

export interface MemoryWords {
  own: string[];
  /** The tokens of its neighbour context. */
  neighbours: string[];
}

/**
 * Each memory's own tokens and its neighbours' (same unbroken run of a non-empty source, as imported),
 * by `tokens` (the BM25 baseline's unless given), without the speakers' `names`.
 */
export function memoryWords(
  memories: BenchMemory[],
  names: Set<string>,
  radius: number,
  tokens: (text: string) => string[] = baselineTokens,
): Map<string, MemoryWords> {
  const own = memories.map((m) => tokens(m.content).filter((t) => !names.has(t)));
  const out = new Map<string, MemoryWords>();
  memories.forEach((m, i) => {
    const neighbours: string[] = [];
    for (let d = 1; d <= radius; d++)
      for (const j of [i - d, i + d]) {
        if (j < 0 || j >= memories.length || !m.source || !sameRun(memories, i, j)) continue;
        neighbours.push(...own[j]);
      }
    out.set(m.externalId, { own: own[i], neighbours });
  });
  return out;
}

function sameRun(memories: BenchMemory[], i: number, j: number): boolean {
  const [from, to] = i < j ? [i, j] : [j, i];
  for (let k = from; k <= to; k++) if (memories[k].source !== memories[i].source) return false;
  return true;
}

function add(into: Reach, q: ReachQuestion, question: Set<string>, words: Map<string, MemoryWords>) {
  const top = new Set(q.ranked.slice(0, 10));
  const evidence = [...new Set(q.evidence)];
  const shares = (tokens: string[] | undefined) => (tokens ?? []).some((t) => question.has(t));
  let hits = 0;
  let reachable = 0;
  for (const id of evidence) {
    const w = words.get(id);
    if (top.has(id)) hits++;
    else if (shares(w?.own)) into.missedSharing++;
    else if (shares(w?.neighbours)) into.missedNeighbours++;
    else {
      into.missedNone++;
      continue;
    }
    if (!top.has(id)) reachable++;
  }
  into.questions++;
  into.recall10 += hits / evidence.length;
  into.wordBound10 += Math.min(hits + reachable, 10) / evidence.length;
}

/**
 * Adds one user's questions into `totals` as sums; `finishReach` turns them into means. `radius`
 * is recall's neighbour-context radius (RETRIEVAL_WEIGHTS.context.radius).
 */
export function addReach(
  totals: ReachTotals,
  questions: ReachQuestion[],
  memories: BenchMemory[],
  radius: number,
): void {
  const names = speakerTokens(memories);
  const words = memoryWords(memories, names, radius);
  for (const q of questions) {
    if (q.evidence.length === 0) continue;
    const question = new Set(baselineTokens(q.question).filter((t) => !names.has(t)));
    add(totals.overall, q, question, words);
    add((totals.byCategory[q.category] ??= empty()), q, question, words);
  }
}

const mean = (r: Reach): Reach => ({
  ...r,
  recall10: r.recall10 / Math.max(1, r.questions),
  wordBound10: r.wordBound10 / Math.max(1, r.questions),
});

/** The totals as means per question. */
export function finishReach(t: ReachTotals): ReachTotals {
  return {
    overall: mean(t.overall),
    byCategory: Object.fromEntries(Object.entries(t.byCategory).map(([c, r]) => [c, mean(r)])),
  };
}
