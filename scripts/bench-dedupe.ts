/**
 * @module scripts/bench-dedupe
 * The near-duplicate decision, measured on labelled pairs, offline:
 *   npm run bench:dedupe [-- --data bench/dedupe-pairs.json] [--show]
 * Each pair (`stored`, `next`, `duplicate`) goes through the write path's own test
 * (memory/write/near-duplicate.ts, isNearDuplicate) with the local hash embedder's cosine, as a save
 * would see it. Prints precision and recall of "merge" per split (dev, test) and language; `--show`
 * lists the pairs it gets wrong on the dev split (the test split's pairs are never printed).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { cosine } from "../src/memory/vector-math.ts";
import { isNearDuplicate } from "../src/memory/write/near-duplicate.ts";
import { LocalHashEmbedder } from "../src/providers/local-hash-embedder.ts";

interface Pair {
  stored: string;
  next: string;
  duplicate: boolean;
  kind: string;
  lang: "en" | "zh";
  split: "dev" | "test";
}

interface Tally {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

const { values } = parseArgs({
  options: { data: { type: "string", default: "bench/dedupe-pairs.json" }, show: { type: "boolean" } },
});

const ratio = (a: number, b: number): string => (b === 0 ? "—" : (a / b).toFixed(3));

async function main(): Promise<void> {
  const pairs = (JSON.parse(readFileSync(values.data!, "utf8")) as { pairs: Pair[] }).pairs;
  const embedder = new LocalHashEmbedder();
  const tallies = new Map<string, Tally>();
  const wrong: string[] = [];
  for (const p of pairs) {
    const [a, b] = await embedder.embed([p.next, p.stored]);
    const merged = isNearDuplicate(p.next, p.stored, cosine(a, b), "local");
    for (const key of [`${p.split} all`, `${p.split} ${p.lang}`]) {
      const t = tallies.get(key) ?? { tp: 0, fp: 0, fn: 0, tn: 0 };
      if (merged && p.duplicate) t.tp++;
      else if (merged) t.fp++;
      else if (p.duplicate) t.fn++;
      else t.tn++;
      tallies.set(key, t);
    }
    if (p.split === "dev" && merged !== p.duplicate)
      wrong.push(`${merged ? "FP" : "FN"} [${p.kind}] ${p.stored}  ⟷  ${p.next}`);
  }
  console.log("split  lang  pairs  precision  recall  (merged: tp/fp, kept apart: fn/tn)");
  for (const [key, t] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
    const [split, lang] = key.split(" ");
    const n = t.tp + t.fp + t.fn + t.tn;
    console.log(
      `${split.padEnd(6)} ${lang.padEnd(5)} ${String(n).padStart(5)}  ${ratio(t.tp, t.tp + t.fp).padStart(9)}  ${ratio(t.tp, t.tp + t.fn).padStart(6)}  (${t.tp}/${t.fp}, ${t.fn}/${t.tn})`,
    );
  }
  if (values.show) for (const w of wrong) console.log(w);
}

await main();
