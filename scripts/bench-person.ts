/**
 * @module scripts/bench-person
 * A benchmark of a person's life, measured on the real product:
 *   npm run bench:person -- [--split dev|test|all] [--data bench/person/lives.json] [--json <out.json>]
 *                           [--failures] [--max-lives N] [--var NAME=VALUE …] [--keep] [--url <server> --key <app key>]
 *   npm run bench:person -- --write-data    regenerate bench/person/lives.json from the seeded blocks
 * Each scripted life (bench/person/README.md) is lived through its own user on a fresh offline server
 * (bench-target.ts, as bench:recall): its sessions in order through save_memory and
 * summarize_conversation, then its questions through recall_memory (person-run.ts). Prints the
 * success rate per category and language (person-score.ts defines success), write and recall
 * figures, and writes the results to bench-results/person-<split>.json (or --json).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { percentile } from "./lib/bench-metrics.ts";
import { say } from "./lib/bench-server.ts";
import { benchTarget, parseVars, withTarget } from "./lib/bench-target.ts";
import { BenchUserError, benchUserIds } from "./lib/bench-users.ts";
import { type LivesFile, PersonDataError, parseLives } from "./lib/person-data.ts";
import { generateLives, PERSON_SEED } from "./lib/person-lives.ts";
import { askLife, type LifeIngest, liveLife } from "./lib/person-run.ts";
import {
  HIT_K,
  type QuestionOutcome,
  type Split,
  splitLives,
  summarizePerson,
  summaryLines,
} from "./lib/person-score.ts";
import { ScriptError } from "./lib/wrangler-d1.ts";

const DATA = "bench/person/lives.json";
const USAGE =
  "usage: npm run bench:person -- [--split dev|test|all] [--data <lives.json>] [--json <out.json>] [--failures] [--max-lives N] [--var NAME=VALUE …] [--keep] [--url <server> --key <app key>] | --write-data";

function options() {
  const { values } = parseArgs({
    options: {
      split: { type: "string", default: "dev" },
      data: { type: "string", default: DATA },
      json: { type: "string" },
      failures: { type: "boolean" },
      "max-lives": { type: "string" },
      "write-data": { type: "boolean" },
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
  const split = values.split;
  if (split !== "dev" && split !== "test" && split !== "all")
    throw new ScriptError(`--split must be dev, test or all, got ${JSON.stringify(split)}\n${USAGE}`);
  const vars = parseVars(values.var);
  const maxLives = values["max-lives"] === undefined ? Number.POSITIVE_INFINITY : Number(values["max-lives"]);
  if (!(maxLives >= 1) || (Number.isFinite(maxLives) && !Number.isInteger(maxLives)))
    throw new ScriptError("--max-lives must be a positive integer");
  return {
    maxLives,
    split: split as Split | "all",
    data: values.data,
    json: values.json ?? `bench-results/person-${split}.json`,
    failures: values.failures ?? false,
    writeData: values["write-data"] ?? false,
    target: benchTarget({ url: values.url, key: values.key, keep: values.keep, vars }),
  };
}

async function main(): Promise<void> {
  const o = options();
  if (o.writeData) {
    const lives = parseLives(generateLives(PERSON_SEED));
    writeFileSync(DATA, `${JSON.stringify(lives, null, 1)}\n`);
    say(
      `wrote ${DATA}: ${lives.lives.length} lives, ${lives.lives.reduce((n, l) => n + l.questions.length, 0)} questions`,
    );
    return;
  }
  const file: LivesFile = parseLives(JSON.parse(readFileSync(o.data, "utf8")));
  const lives = (o.split === "all" ? file.lives : splitLives(file.lives, file.seed, o.split)).slice(0, o.maxLives);
  benchUserIds(lives.map((l) => l.id));
  say(
    `${o.data}: ${lives.length} lives of ${file.lives.length} (split ${o.split}), ${lives.reduce((n, l) => n + l.questions.length, 0)} questions`,
  );
  const run = await withTarget(o.target, async (s) => {
    const rows: QuestionOutcome[] = [];
    const latencies: number[] = [];
    const ingests: (LifeIngest & { life: string })[] = [];
    for (const life of lives) {
      say(`${life.id}: ${life.sessions.length} sessions, ${life.questions.length} questions`);
      const { facts, ingest } = await liveLife(s, life);
      ingests.push({ life: life.id, ...ingest });
      const asked = await askLife(s, life, facts);
      rows.push(...asked.outcomes);
      latencies.push(...asked.latencies);
    }
    return { rows, latencies, ingests };
  });
  const summary = summarizePerson(run.rows);
  const facts = lives.reduce(
    (n, l) => n + l.sessions.reduce((m, s) => m + s.turns.filter((t) => t.facts?.length).length, 0),
    0,
  );
  const unstored = run.ingests.reduce((n, i) => n + i.unstored.length, 0);
  const writes = run.ingests.reduce((n, i) => n + i.writes, 0);
  const failedWrites = run.ingests.reduce((n, i) => n + i.failedWrites, 0);
  const ingestMs = run.ingests.reduce((n, i) => n + i.ms, 0);
  console.log(
    `bench:person, split ${o.split}: success rate (a hit in the first ${HIT_K}; abstention: nothing returned)`,
  );
  console.log(summaryLines(summary).join("\n"));
  console.log(
    `writes ${writes} (${failedWrites} failed) in ${(ingestMs / 1000).toFixed(1)} s; fact turns ${facts}, facts left without a memory ${unstored}`,
  );
  console.log(
    `recall p50 ${percentile(run.latencies, 50).toFixed(0)} ms, p95 ${percentile(run.latencies, 95).toFixed(0)} ms`,
  );
  if (o.failures)
    for (const r of run.rows.filter((x) => !x.ok))
      console.log(`  ✗ ${r.id} [${r.category}] ${r.question} — ${r.why}; got [${(r.got ?? []).join(", ")}]`);
  mkdirSync(dirname(o.json), { recursive: true });
  writeFileSync(
    o.json,
    `${JSON.stringify(
      {
        benchmark: "bench:person",
        split: o.split,
        data: o.data,
        seed: file.seed,
        hit_k: HIT_K,
        lives: lives.map((l) => l.id),
        summary,
        writes: {
          calls: writes,
          failed: failedWrites,
          ms: ingestMs,
          unstored: run.ingests.filter((i) => i.unstored.length),
        },
        latency: { p50: percentile(run.latencies, 50), p95: percentile(run.latencies, 95) },
        questions: run.rows,
      },
      null,
      2,
    )}\n`,
  );
  say(`wrote ${o.json}`);
}

main().catch((err) => {
  const known =
    err instanceof ScriptError ||
    err instanceof PersonDataError ||
    err instanceof BenchUserError ||
    err instanceof SyntaxError;
  console.error(`bench: ${known ? err.message : ((err as Error).stack ?? String(err))}`);
  process.exit(1);
});
