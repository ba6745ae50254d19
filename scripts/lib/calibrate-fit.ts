/**
 * @module scripts/lib/calibrate-fit
 * The fitting math of `npm run calibrate`, pure. Both thresholds are cosines under the embedder a
 * server runs, fitted from labelled pairs:
 *  - the dense relevance floor admits a memory on cosine alone (without lexical evidence), so it is
 *    set where unrelated text stops: the (1 − noiseShare) quantile of unrelated (question, memory)
 *    pairs' cosines, i.e. at most `noiseShare` of unrelated memories pass it. What share of the
 *    relevant (question, evidence) pairs pass it too is reported beside it;
 *  - the near-duplicate bar merges a restatement without asking the Llm, together with the token
 *    guards (overlap, negation cues, nothing added). Among the bars 0.00, 0.01 … 1.00 it is the one
 *    that merges the most labelled restatements net of labelled non-duplicates merged (ties: the
 *    highest such bar, the cautious one), never below the relevance floor. Pairs the guards refuse
 *    merge at no bar; how many merge either way is reported.
 * The floor is the next multiple of 0.01 strictly above the quantile it must exceed.
 */
import type { BenchDataset } from "./bench-data.ts";
import { percentile } from "./bench-metrics.ts";

/** Evidence memories paired with one question, and unrelated memories per question. */
const EVIDENCE_PER_QUESTION = 3;
const UNRELATED_PER_QUESTION = 2;

export interface Pair {
  a: string;
  b: string;
}

/** The next multiple of 0.01 strictly above `x` (x to 6 decimals, so float noise never decides). */
const above01 = (x: number) => (Math.floor(Math.round(x * 1e6) / 1e4) + 1) / 100;
const share = (xs: number[], pass: (x: number) => boolean) => (xs.length ? xs.filter(pass).length / xs.length : 0);

export interface FloorFit {
  floor: number;
  /** Share of relevant pairs at or above the floor (the dense channel's recall at it). */
  relevantPassing: number;
  /** Share of unrelated pairs at or above the floor (≤ noiseShare, up to ties and rounding). */
  unrelatedPassing: number;
  relevant: number;
  unrelated: number;
  /** Medians, to show how far apart the two populations lie. */
  medians: { relevant: number; unrelated: number };
}

export function fitDenseFloor(relevant: number[], unrelated: number[], noiseShare = 0.05): FloorFit {
  if (relevant.length === 0 || unrelated.length === 0)
    throw new RangeError("fitDenseFloor needs relevant and unrelated pairs");
  if (!(noiseShare > 0 && noiseShare < 1)) throw new RangeError("noiseShare must be between 0 and 1");
  const quantile = percentile(unrelated, 100 * (1 - noiseShare));
  // Strictly above the quantile: ties at it would let more than noiseShare through.
  const floor = Math.min(1, above01(quantile));
  return {
    floor,
    relevantPassing: share(relevant, (c) => c >= floor),
    unrelatedPassing: share(unrelated, (c) => c >= floor),
    relevant: relevant.length,
    unrelated: unrelated.length,
    medians: { relevant: percentile(relevant, 50), unrelated: percentile(unrelated, 50) },
  };
}

export interface DuplicatePair {
  cosine: number;
  /** The label: a restatement that may be merged. */
  duplicate: boolean;
  /** The product's token guards (everything but the cosine bar) let the pair merge. */
  guardsPass: boolean;
}

export interface BarFit {
  bar: number;
  /** Share of labelled restatements merged at the bar (guards and cosine). */
  duplicatesMerged: number;
  /** Restatements the guards refuse whatever the bar: left to the Llm's conflict check. */
  duplicatesGuarded: number;
  /** Labelled non-duplicates merged at the bar (the guards let them through and the cosine clears it). */
  falseMerges: number;
  /** The highest cosine of a non-duplicate the guards pass (null: the guards refuse every one). */
  hardestNonDuplicate: number | null;
  duplicates: number;
  nonDuplicates: number;
}

export function fitNearDuplicateBar(pairs: DuplicatePair[], floor: number): BarFit {
  const dup = pairs.filter((p) => p.duplicate);
  const non = pairs.filter((p) => !p.duplicate);
  if (dup.length === 0 || non.length === 0) throw new RangeError("fitNearDuplicateBar needs both labels");
  const merged = (ps: DuplicatePair[], bar: number) => ps.filter((p) => p.guardsPass && p.cosine >= bar).length;
  let bar = 1;
  let best = Number.NEGATIVE_INFINITY;
  for (let step = 100; step >= Math.ceil(floor * 100 - 1e-9); step--) {
    const t = step / 100;
    const net = merged(dup, t) - merged(non, t);
    if (net > best) [best, bar] = [net, t]; // descending: a tie keeps the higher bar
  }
  const through = non.filter((p) => p.guardsPass).map((p) => p.cosine);
  return {
    bar,
    duplicatesMerged: merged(dup, bar) / dup.length,
    duplicatesGuarded: dup.filter((p) => !p.guardsPass).length,
    falseMerges: merged(non, bar),
    hardestNonDuplicate: through.length ? Math.max(...through) : null,
    duplicates: dup.length,
    nonDuplicates: non.length,
  };
}

/**
 * (question, evidence) and (question, another sample's memory) pairs, `max` questions taken in turn
 * from each sample so every conversation is represented; the unrelated picks are spread by a stride.
 */
export function floorPairs(ds: BenchDataset, max: number): { relevant: Pair[]; unrelated: Pair[] } {
  if (ds.samples.length < 2)
    throw new RangeError("the data file needs two samples or more (unrelated pairs come from another one)");
  const relevant: Pair[] = [];
  const unrelated: Pair[] = [];
  let taken = 0;
  for (let round = 0; taken < max; round++) {
    let any = false;
    for (const [s, sample] of ds.samples.entries()) {
      const q = sample.questions[round];
      if (!q || taken >= max) continue;
      any = true;
      const byId = new Map(sample.memories.map((m) => [m.externalId, m.content]));
      const evidence = q.evidence.map((id) => byId.get(id)).filter((c): c is string => c !== undefined);
      if (evidence.length === 0) continue;
      taken++;
      for (const content of evidence.slice(0, EVIDENCE_PER_QUESTION)) relevant.push({ a: q.question, b: content });
      const other = ds.samples[(s + 1 + (round % (ds.samples.length - 1))) % ds.samples.length];
      for (let j = 0; j < UNRELATED_PER_QUESTION; j++) {
        const m = other.memories[(round * 7919 + j * 104_729) % other.memories.length];
        unrelated.push({ a: q.question, b: m.content });
      }
    }
    if (!any) break;
  }
  return { relevant, unrelated };
}
