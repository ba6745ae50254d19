/**
 * @module scripts/calibrate
 * Fits the two cosine thresholds for the embedder a server runs, and prints the vars to set:
 *   npm run calibrate -- --data <LoCoMo or generic file> [--pairs bench/near-duplicate-pairs.json]
 *                        [--url <server> --key <app key>] [--questions 300] [--noise-share 0.05] [--json]
 * Without --url it starts a fresh offline server (the local hash embedder), as the benchmarks do.
 *  - DENSE_RELEVANCE_FLOOR from the data file: every question paired with its evidence memories
 *    (relevant) and with memories of another sample, another person's conversation (unrelated);
 *  - NEAR_DUPLICATE_COSINE from the labelled pairs file: restatements that may merge and statements
 *    that must not (negation, tense, an added fact, a different fact), with the product's own token
 *    guards (memory/write/near-duplicate.ts) applied as the write path applies them.
 * The cosines are the server's own: POST /v1/similarity (http/similarity-route.ts) embeds each pair
 * with the embedder that server runs, so a deployment on bge-m3 is measured on bge-m3. The fitting
 * rules are in scripts/lib/calibrate-fit.ts. --json prints the result as JSON instead of text.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { RETRIEVAL_WEIGHTS } from "../src/memory/retrieval-weights.ts";
import { isNearDuplicate, NEAR_DUPLICATE } from "../src/memory/write/near-duplicate.ts";
import { loadDataset } from "./lib/bench-data.ts";
import { say } from "./lib/bench-server.ts";
import { benchTarget, withTarget } from "./lib/bench-target.ts";
import { type DuplicatePair, fitDenseFloor, fitNearDuplicateBar, floorPairs, type Pair } from "./lib/calibrate-fit.ts";
import { ScriptError } from "./lib/wrangler-d1.ts";

const USAGE =
  "usage: npm run calibrate -- --data <file> [--pairs bench/near-duplicate-pairs.json] [--url <server> --key <app key>] [--questions N] [--noise-share 0.05] [--json]";

/** Pairs per POST /v1/similarity (its SIMILARITY_MAX_PAIRS). */
const PAIRS_PER_CALL = 32;

interface LabelledPair {
  stored: string;
  new: string;
  duplicate: boolean;
  kind: string;
}

function options() {
  const { values } = parseArgs({
    options: {
      data: { type: "string" },
      pairs: { type: "string", default: "bench/near-duplicate-pairs.json" },
      url: { type: "string" },
      key: { type: "string" },
      questions: { type: "string", default: "300" },
      "noise-share": { type: "string", default: "0.05" },
      json: { type: "boolean", default: false },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (!values.data) throw new ScriptError(`give --data <file> (LoCoMo or the generic format)\n${USAGE}`);
  const questions = Number(values.questions);
  const noiseShare = Number(values["noise-share"]);
  if (!Number.isInteger(questions) || questions < 10) throw new ScriptError("--questions must be an integer ≥ 10");
  if (!(noiseShare > 0 && noiseShare < 0.5)) throw new ScriptError("--noise-share must be between 0 and 0.5");
  return {
    data: values.data,
    pairsFile: values.pairs,
    questions,
    noiseShare,
    json: values.json,
    target: benchTarget({ url: values.url, key: values.key, vars: {} }),
  };
}

interface Similarity {
  provider: string;
  model: string;
  dimensions: number;
  cosines: number[];
}

async function similarityCall(base: string, key: string, pairs: Pair[]): Promise<Similarity> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${base}/v1/similarity`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ pairs }),
    });
    if (res.ok) return (await res.json()) as Similarity;
    const text = await res.text();
    if (res.status === 404) throw new ScriptError(`${base} has no POST /v1/similarity: deploy this version first`);
    if ((res.status === 503 || res.status === 429) && attempt < 4) {
      await new Promise((r) => setTimeout(r, 2000 * attempt));
      continue;
    }
    throw new ScriptError(`POST /v1/similarity answered ${res.status}: ${text.slice(0, 300)}`);
  }
}

/** The server's cosines for every pair, PAIRS_PER_CALL per request; the embedder it named. */
async function cosines(
  base: string,
  key: string,
  pairs: Pair[],
): Promise<{ embedder: Omit<Similarity, "cosines">; cosines: number[] }> {
  const out: number[] = [];
  let embedder: Omit<Similarity, "cosines"> | null = null;
  for (let i = 0; i < pairs.length; i += PAIRS_PER_CALL) {
    const r = await similarityCall(base, key, pairs.slice(i, i + PAIRS_PER_CALL));
    embedder = { provider: r.provider, model: r.model, dimensions: r.dimensions };
    out.push(...r.cosines);
  }
  return { embedder: embedder!, cosines: out };
}

function loadPairs(file: string): LabelledPair[] {
  const pairs = JSON.parse(readFileSync(file, "utf8")) as LabelledPair[];
  if (
    !Array.isArray(pairs) ||
    pairs.some((p) => typeof p.stored !== "string" || typeof p.new !== "string" || typeof p.duplicate !== "boolean")
  )
    throw new ScriptError(`${file}: expected [{stored, new, duplicate, kind}]`);
  return pairs;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

async function main(): Promise<void> {
  const o = options();
  const ds = loadDataset(JSON.parse(readFileSync(o.data, "utf8")));
  const labelled = loadPairs(o.pairsFile);
  const { relevant, unrelated } = floorPairs(ds, o.questions);
  say(
    `${o.data}: ${relevant.length} relevant and ${unrelated.length} unrelated pairs; ${labelled.length} labelled pairs from ${o.pairsFile}`,
  );
  const result = await withTarget(o.target, async (s) => {
    const floorSide = await cosines(s.base, s.key, [...relevant, ...unrelated]);
    const dupSide = await cosines(
      s.base,
      s.key,
      labelled.map((p) => ({ a: p.new, b: p.stored })),
    );
    const embedder = floorSide.embedder;
    const floor = fitDenseFloor(
      floorSide.cosines.slice(0, relevant.length),
      floorSide.cosines.slice(relevant.length),
      o.noiseShare,
    );
    // The token guards alone: the write path's decision with the cosine bar out of the way.
    const dupPairs: DuplicatePair[] = labelled.map((p, i) => ({
      cosine: dupSide.cosines[i],
      duplicate: p.duplicate,
      guardsPass: isNearDuplicate(p.new, p.stored, 1, embedder.provider, 0),
    }));
    const bar = fitNearDuplicateBar(dupPairs, floor.floor);
    return { server: s.base, embedder, floor, bar };
  });
  const defaults = {
    denseFloor: RETRIEVAL_WEIGHTS.denseFloor[result.embedder.provider] ?? null,
    nearDuplicateCosine: NEAR_DUPLICATE.cosine[result.embedder.provider] ?? null,
  };
  const vars = {
    DENSE_RELEVANCE_FLOOR: result.floor.floor.toFixed(2),
    NEAR_DUPLICATE_COSINE: result.bar.bar.toFixed(2),
  };
  if (o.json) {
    console.log(JSON.stringify({ ...result, noise_share: o.noiseShare, defaults, vars }, null, 2));
    return;
  }
  const { floor, bar, embedder } = result;
  console.log(
    [
      `calibrate: ${result.server} runs ${embedder.provider} ${embedder.model} (${embedder.dimensions} dimensions)`,
      `dense relevance floor ${floor.floor.toFixed(2)} (default ${defaults.denseFloor ?? "—"}): ${pct(floor.unrelatedPassing)} of ${floor.unrelated} unrelated (question, memory) pairs pass it, ${pct(floor.relevantPassing)} of ${floor.relevant} relevant (question, evidence) pairs do; medians ${floor.medians.relevant.toFixed(3)} relevant, ${floor.medians.unrelated.toFixed(3)} unrelated`,
      `near-duplicate bar ${bar.bar.toFixed(2)} (default ${defaults.nearDuplicateCosine ?? "—"}): merges ${pct(bar.duplicatesMerged)} of ${bar.duplicates} labelled restatements (${bar.duplicatesGuarded} refused by the token guards, left to the Llm), ${bar.falseMerges} of ${bar.nonDuplicates} non-duplicates; hardest non-duplicate the guards pass: ${bar.hardestNonDuplicate?.toFixed(3) ?? "none"}`,
      "",
      "Set on that deployment ([env.production.vars] in wrangler.toml, then npm run deploy):",
      ...Object.entries(vars).map(([k, v]) => `${k} = "${v}"`),
    ].join("\n"),
  );
}

main().catch((err) => {
  console.error(
    `calibrate: ${err instanceof ScriptError || err instanceof SyntaxError ? err.message : ((err as Error).stack ?? String(err))}`,
  );
  process.exit(1);
});
