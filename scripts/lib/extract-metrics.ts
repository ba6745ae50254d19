/**
 * @module scripts/lib/extract-metrics
 * The extraction benchmark's scores, from what summarize_conversation answered (each stored fact's
 * memory id and the 1-based turn it came from) and the LoCoMo annotations. Pure.
 *   coverage   observations of the speaker whose evidence turn produced a stored memory
 *   precision  stored memories whose turn carries an observation (of either speaker)
 *   noise      stored memories from the other speaker's turns (must be 0)
 *   filler     stored memories from turns that carry no observation
 * A memory that several turns merged into counts for each of them (it holds all of them).
 */
import type { ExtractSession } from "./extract-data.ts";

/** Outcomes that leave a memory in the store (rejected and quarantined facts do not). */
export const STORED = new Set(["created", "merged", "superseded"]);

export interface FactOutcome {
  status: string;
  id: string | null;
  turn: number | null;
}

export interface SessionScore {
  observations: number;
  covered: number;
  stored: number;
  precise: number;
  noise: number;
  filler: number;
}

/** Scores one session's answer; `turnsOf` gathers memory id → the turn ids it holds, for QA. */
export function scoreSession(
  session: ExtractSession,
  speaker: string,
  outcomes: FactOutcome[],
  turnsOf: Map<string, Set<string>>,
): SessionScore {
  const produced = new Set<string>();
  const score: SessionScore = { observations: 0, covered: 0, stored: 0, precise: 0, noise: 0, filler: 0 };
  for (const o of outcomes) {
    if (!STORED.has(o.status) || o.id === null) continue;
    score.stored++;
    const turn = o.turn === null ? undefined : session.turns[o.turn - 1];
    if (!turn) continue;
    produced.add(turn.diaId);
    turnsOf.set(o.id, (turnsOf.get(o.id) ?? new Set()).add(turn.diaId));
    if (turn.speaker !== speaker) score.noise++;
    if (session.observed.has(turn.diaId)) score.precise++;
    else score.filler++;
  }
  for (const evidence of session.observations) {
    score.observations++;
    if (evidence.some((id) => produced.has(id))) score.covered++;
  }
  return score;
}

export function addScores(a: SessionScore, b: SessionScore): SessionScore {
  return {
    observations: a.observations + b.observations,
    covered: a.covered + b.covered,
    stored: a.stored + b.stored,
    precise: a.precise + b.precise,
    noise: a.noise + b.noise,
    filler: a.filler + b.filler,
  };
}

/** Recall@10 by evidence turn: relevant turns held by the first ten memories, over all relevant turns. */
export function turnRecallAt10(rankedIds: string[], turnsOf: (id: string) => Iterable<string>, relevant: string[]) {
  const found = new Set<string>();
  for (const id of rankedIds.slice(0, 10)) for (const turn of turnsOf(id)) found.add(turn);
  return relevant.filter((t) => found.has(t)).length / relevant.length;
}
