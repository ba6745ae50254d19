/**
 * @module scripts/bench-recall
 * The recall benchmark, measured on the real product:
 *   npm run bench:recall -- --data <file> [--progressive] [--first-call-curve] [--var NAME=VALUE …] [--json <out.json>] [--ranked <out.jsonl>] [--no-cross] [--keep]
 *   npm run bench:recall -- --synthetic 1000,10000,100000 [--json <out.json>] [--queries 200] [--keep]
 *   … [--url <server> --key <app key>]: the same benchmark against a server already running, local or
 *   deployed, instead of one it starts (bench-target.ts: its users are tagged per run and stay there).
 * Without --url, each run starts its own offline server (wrangler dev --env dev --local on 127.0.0.1 and a free
 * port) on a throwaway state directory, creates an app-scoped key there, imports every sample as
 * one user through POST /v1/import (memory text, session date as event_time), asks every question
 * through the MCP tool recall_memory over /mcp with limit 10, prints Recall@5/@10, MRR@10, nDCG@10
 * (overall and per category), ingest time and latency p50/p95, and stops the server by process
 * group. --progressive also asks every question as the first call of a fresh session (no limit: stage 1
 * of progressive injection) and reports the share of evidence received and its estimated tokens.
 * --first-call-curve searches every question once more (limit 20) and replays stage 1 over it under
 * other rules (budgets, excerpts, an oracle excerpt): bench-first-call-curve.ts.
 * --var sets a server config var for the run (e.g. --var PROGRESSIVE_FIRST_CALL_TOKENS=120).
 * --ranked writes what recall returned for every question, a JSON line each, for `npm run bench:ceiling`.
 * The data file may be LoCoMo or the generic format (detected). --synthetic loads N
 * generated memories for one user per size, on a fresh server each, and reports latency, recall
 * of a known memory, the index's resident bytes and workerd's RSS.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { RETRIEVAL_WEIGHTS } from "../src/memory/retrieval-weights.ts";
import { answerRate } from "./lib/bench-answers.ts";
import { bm25Index } from "./lib/bench-bm25.ts";
import { type BenchDataset, loadDataset } from "./lib/bench-data.ts";
import {
  curveJson,
  curveLines,
  firstCallCurve,
  type RankedQuestion,
  rankForReplay,
} from "./lib/bench-first-call-curve.ts";
import { percentile, type QueryScores, scoreQuery, summarizeByCategory } from "./lib/bench-metrics.ts";
import { type ProgressiveRow, runFirstCalls, summarizeProgressive } from "./lib/bench-progressive.ts";
import { addReach, finishReach, newReach } from "./lib/bench-reach.ts";
import { datasetJson, printDataset, printScale, type ScaleRow, scaleJson } from "./lib/bench-report.ts";
import { crossUserCheck, importMemories, indexStats, recall, runQuestions, type Server } from "./lib/bench-run.ts";
import { say } from "./lib/bench-server.ts";
import { ServerFigures } from "./lib/bench-server-figures.ts";
import { syntheticMemories, syntheticQueries } from "./lib/bench-synthetic.ts";
import { benchTarget, parseVars, withTarget } from "./lib/bench-target.ts";
import { BenchUserError, benchRunUser, benchUserId, benchUserIds, ownEvidence } from "./lib/bench-users.ts";
import { rankedLines } from "./lib/ceiling-ranked.ts";
import { ScriptError } from "./lib/wrangler-d1.ts";

const USAGE =
  "usage: npm run bench:recall -- (--data <file> [--progressive] [--first-call-curve] | --synthetic N[,N…]) [--var NAME=VALUE …] [--json <out.json>] [--ranked <out.jsonl>] [--no-cross] [--queries N] [--keep] [--url <server> --key <app key>]";

function options() {
  const { values } = parseArgs({
    options: {
      data: { type: "string" },
      synthetic: { type: "string" },
      json: { type: "string" },
      ranked: { type: "string" },
      queries: { type: "string" },
      "no-cross": { type: "boolean" },
      progressive: { type: "boolean" },
      "first-call-curve": { type: "boolean" },
      keep: { type: "boolean" },
      var: { type: "string", multiple: true },
      url: { type: "string" },
      key: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (!values.data === !values.synthetic) throw new ScriptError(`give --data or --synthetic\n${USAGE}`);
  if ((values.progressive || values["first-call-curve"]) && !values.data)
    throw new ScriptError(`--progressive and --first-call-curve need --data\n${USAGE}`);
  const sizes = (values.synthetic ?? "").split(",").filter(Boolean).map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 1_000_000))
    throw new ScriptError(`--synthetic takes sizes like 1000,10000,100000`);
  const vars = parseVars(values.var);
  const queries = Number(values.queries ?? 200);
  if (!Number.isInteger(queries) || queries < 1) throw new ScriptError("--queries must be a positive integer");
  return {
    data: values.data,
    sizes,
    json: values.json,
    ranked: values.ranked,
    cross: !values["no-cross"],
    progressive: values.progressive ?? false,
    curve: values["first-call-curve"] ?? false,
    queries,
    vars,
    target: benchTarget({ url: values.url, key: values.key, keep: values.keep, vars }),
  };
}

async function runDataset(
  file: string,
  ds: BenchDataset,
  o: { cross: boolean; progressive: boolean; curve: boolean; ranked?: string },
  s: Server,
) {
  const externalOf = new Map<string, Map<string, string>>();
  let ingestMs = 0;
  for (const sample of ds.samples) {
    say(`importing ${sample.id}: ${sample.memories.length} memories`);
    const r = await importMemories(s, benchUserId(sample.id), sample.memories);
    ingestMs += r.ms;
    externalOf.set(sample.id, r.externalOf);
  }
  const scored: { category: string; scores: QueryScores }[] = [];
  const latencies: number[] = [];
  const server = new ServerFigures();
  const tokens5: number[] = [];
  const top5: { text: string; answer?: string }[] = [];
  let coldMax = 0;
  const reach = newReach();
  for (const sample of ds.samples) {
    say(`asking ${sample.questions.length} questions of ${sample.id}`);
    const run = await runQuestions(s, benchUserId(sample.id), sample.questions, externalOf.get(sample.id)!);
    scored.push(...run.scored);
    latencies.push(...run.latencies);
    for (const t of run.server) server.add(t);
    tokens5.push(...run.tokens5);
    top5.push(...run.top5);
    coldMax = Math.max(coldMax, run.coldMs);
    addReach(reach, run.reach, sample.memories, RETRIEVAL_WEIGHTS.context.radius);
    if (o.ranked) appendFileSync(o.ranked, rankedLines(sample.id, run.reach));
  }
  const firstCalls: ProgressiveRow[] = [];
  for (const sample of o.progressive ? ds.samples : []) {
    say(`first calls of fresh sessions: ${sample.questions.length} questions of ${sample.id}`);
    firstCalls.push(...(await runFirstCalls(s, benchUserId(sample.id), sample.questions, externalOf.get(sample.id)!)));
  }
  const ranked: RankedQuestion[] = [];
  for (const sample of o.curve ? ds.samples : []) {
    say(`replay searches: ${sample.questions.length} questions of ${sample.id}`);
    ranked.push(...(await rankForReplay(s, benchUserId(sample.id), sample.questions, externalOf.get(sample.id)!)));
  }
  if (o.cross) say("cross-user check: asking each user questions about the other samples");
  const crossResult = o.cross && ds.samples.length > 1 ? await crossUserCheck(s, ds.samples, externalOf) : null;
  const { overall, byCategory } = summarizeByCategory(scored);
  return {
    baseline: baselineScores(ds),
    dataset: basename(file),
    format: ds.format,
    users: ds.samples.length,
    memories: ds.samples.reduce((n, x) => n + x.memories.length, 0),
    skippedQuestions: ds.skippedQuestions,
    overall,
    byCategory,
    ingestMs,
    latency: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), coldMax },
    server: server.summary(),
    cross: crossResult,
    tokens5Mean: tokens5.reduce((a, b) => a + b, 0) / Math.max(1, tokens5.length),
    answerRate5: answerRate(top5),
    reach: finishReach(reach),
    progressive: o.progressive ? summarizeProgressive(firstCalls) : null,
    curve: o.curve ? firstCallCurve(ranked) : null,
  };
}

/** Plain BM25 over the same samples and questions (bench-bm25.ts): the yardstick of every run. */
function baselineScores(ds: BenchDataset) {
  const scored = ds.samples.flatMap((sample) => {
    const index = bm25Index(sample.memories);
    return sample.questions.map((q) => ({
      category: q.category,
      scores: scoreQuery(index.search(q.question, 10), q.evidence),
    }));
  });
  return summarizeByCategory(scored);
}

async function runSynthetic(n: number, queryCount: number, s: Server, rss: () => number[]): Promise<ScaleRow> {
  const set = syntheticMemories(n);
  const userId = benchRunUser(`synthetic-${n}`);
  let last = 0;
  const r = await importMemories(s, userId, set.memories, (done) => {
    if (done - last < 10_000 && done !== n) return;
    say(`imported ${done}/${n}`);
    last = done;
  });
  const questions = syntheticQueries(set, queryCount);
  for (const q of questions.slice(0, 5)) await recall(s, userId, q.question); // warm-up: load the Durable Object and its index
  const latencies: number[] = [];
  const server = new ServerFigures();
  const scores: number[] = [];
  for (const q of questions) {
    const hit = await recall(s, userId, q.question);
    latencies.push(hit.ms);
    server.add(hit.server);
    scores.push(scoreQuery(ownEvidence(userId, hit.ids, r.externalOf), q.evidence).recall10);
  }
  const stats = await indexStats(s, userId);
  return {
    memories: n,
    ingestMs: r.ms,
    queries: questions.length,
    recall10: scores.reduce((a, b) => a + b, 0) / scores.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    server: server.summary(),
    residentBytes: stats.resident_bytes,
    workerdRss: rss(),
  };
}

async function main(): Promise<void> {
  const o = options();
  let json: Record<string, unknown>;
  if (o.data) {
    const ds = loadDataset(JSON.parse(readFileSync(o.data, "utf8")));
    say(`${o.data}: ${ds.format} format, ${ds.samples.length} samples`);
    benchUserIds(ds.samples.map((sample) => sample.id)); // two samples sharing a user would mix their memories: refuse
    if (o.ranked) writeFileSync(o.ranked, "");
    const report = await withTarget(o.target, (s) => runDataset(o.data!, ds, o, s));
    if (Object.keys(o.vars).length) say(`config vars: ${JSON.stringify(o.vars)}`);
    printDataset(report);
    if (report.curve) console.log(curveLines(report.curve).join("\n"));
    json = { ...datasetJson(report), ...(report.curve ? { first_call_curve: curveJson(report.curve) } : {}) };
  } else {
    const rows: ScaleRow[] = [];
    for (const n of o.sizes) rows.push(await withTarget(o.target, (s, rss) => runSynthetic(n, o.queries, s, rss)));
    printScale(rows);
    json = scaleJson(rows);
  }
  if (o.json) {
    writeFileSync(o.json, `${JSON.stringify(json, null, 2)}\n`);
    say(`wrote ${o.json}`);
  }
}

main().catch((err) => {
  console.error(
    `bench: ${err instanceof ScriptError || err instanceof SyntaxError || err instanceof BenchUserError ? err.message : ((err as Error).stack ?? String(err))}`,
  );
  process.exit(1);
});
