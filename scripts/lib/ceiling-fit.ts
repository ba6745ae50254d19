/**
 * @module scripts/lib/ceiling-fit
 * The recall ceiling's arithmetic: R@10 of a weighted sum of signals (ceiling-signals.ts), and the
 * weights that maximise it on the very questions they are scored on — fitted to the answers, so the
 * figure is an optimistic bound for re-weighting those signals, not a result one could ship. The fit
 * is a seeded random search (mulberry32, bench-synthetic.ts): a walk from recall's own ranking, then
 * from random starts, wide steps and then fine ones, keeping a step only when it scores higher.
 * Recall's weight stays 1, so every other weight reads as "how much of this on top of recall". Pure.
 */
import { prng } from "./bench-synthetic.ts";
import type { CeilingQuestion } from "./ceiling-signals.ts";

export interface CeilingScore {
  overall: number;
  byCategory: Record<string, number>;
}

/** Share of a question's evidence among the 10 best of `weights · signals` (ties: the user's order). */
export function recallAt10(weights: number[], q: CeilingQuestion): number {
  const size = q.evidence.length;
  const score = new Float64Array(size);
  weights.forEach((w, s) => {
    if (w === 0) return;
    const signal = q.signals[s];
    for (let i = 0; i < size; i++) score[i] += w * signal[i];
  });
  const top: number[] = [];
  for (let i = 0; i < size; i++) {
    if (top.length === 10 && score[i] <= score[top[9]]) continue;
    let at = Math.min(top.length, 9);
    if (top.length < 10) top.push(i);
    else top[9] = i;
    while (at > 0 && score[top[at - 1]] < score[i]) {
      top[at] = top[at - 1];
      at--;
    }
    top[at] = i;
  }
  const relevant = q.evidence.reduce((a, b) => a + b, 0);
  return relevant === 0 ? 0 : top.reduce((n, i) => n + q.evidence[i], 0) / relevant;
}

/** Mean R@10, overall and per category. */
export function evaluate(weights: number[], questions: CeilingQuestion[]): CeilingScore {
  const sums: Record<string, { n: number; sum: number }> = {};
  let total = 0;
  for (const q of questions) {
    const r = recallAt10(weights, q);
    total += r;
    const c = (sums[q.category] ??= { n: 0, sum: 0 });
    c.n++;
    c.sum += r;
  }
  const byCategory = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v.sum / v.n]));
  return { overall: questions.length ? total / questions.length : 0, byCategory };
}

export interface FitOptions {
  /** Score to maximise: overall R@10, or one category's. */
  objective: "overall" | { category: string };
  seed: number;
  restarts: number;
  steps: number;
}

const target = (s: CeilingScore, o: FitOptions["objective"]) =>
  o === "overall" ? s.overall : (s.byCategory[o.category] ?? 0);

/** The weights (recall's first and fixed at 1) that score best on `questions` by the objective. */
export function fitWeights(
  questions: CeilingQuestion[],
  signals: number,
  o: FitOptions,
): { weights: number[]; score: CeilingScore } {
  const random = prng(o.seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const recallOnly: number[] = Array.from({ length: signals }, (_, i) => (i === 0 ? 1 : 0));
  let best = { weights: recallOnly, score: evaluate(recallOnly, questions) };
  for (let r = 0; r < o.restarts; r++) {
    let walk = r === 0 ? best : start(questions, randomStart(signals, normal));
    for (let step = 0; step < o.steps; step++) {
      const spread = step < o.steps / 2 ? 0.3 : 0.08;
      const weights = walk.weights.map((w, i) => (i === 0 ? 1 : w + spread * normal()));
      const score = evaluate(weights, questions);
      if (target(score, o.objective) > target(walk.score, o.objective)) walk = { weights, score };
    }
    if (target(walk.score, o.objective) > target(best.score, o.objective)) best = walk;
  }
  return best;
}

/** Recall's weight 1, every other drawn around 0. */
const randomStart = (signals: number, normal: () => number) =>
  Array.from({ length: signals }, (_, i) => (i === 0 ? 1 : 0.5 * normal()));

const start = (questions: CeilingQuestion[], weights: number[]) => ({ weights, score: evaluate(weights, questions) });
