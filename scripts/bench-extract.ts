/**
 * @module scripts/bench-extract
 * The extraction benchmark, on the real product:
 *   npm run bench:extract -- --data ../shared/data/locomo/locomo-dev.json [--json out.json] [--samples N] [--keep]
 * Starts its own offline server (as bench:recall does). For each LoCoMo sample and each speaker,
 * every session goes through the MCP tool summarize_conversation over /mcp as a transcript of
 * "Name: text" lines with that speaker as user_name (the other speaker is the other side), the
 * session date as event_time; the answer's outcomes name each stored memory and the turn it came
 * from. Prints coverage, precision, noise and filler (scripts/lib/extract-metrics), memories and
 * milliseconds per session, and QA through extraction: the LoCoMo questions whose evidence that
 * speaker spoke, recalled (recall_memory, limit 10) over the extracted store, beside the same
 * questions over a store of that speaker's raw turns imported one per memory.
 * Then the Chinese set (`--zh`, default bench/zh-extract.json; scripts/lib/extract-zh): each
 * conversation through summarize_conversation as messages with its date as event_time, scored by
 * split (dev, test); `--ids c25-c33` scores only the conversations named (ids, ranges). `--data` defaults to ../shared/data/locomo/locomo-dev.json when that file is
 * there, so one run reports both languages. Every run first prints the same sets through the
 * offline rules alone (scripts/lib/extract-offline); `--offline` stops there (no server), `--show`
 * lists what the rules miss and keep wrongly on LoCoMo and on the Chinese dev split; `--unobserved N`
 * prints N of the facts the rules keep from LoCoMo turns with no observation, drawn at random with
 * `--seed` (default 1), each beside its turn, for labelling by hand which of them are facts.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { percentile } from "./lib/bench-metrics.ts";
import { importMemories, recall, type Server } from "./lib/bench-run.ts";
import { say, withServer } from "./lib/bench-server.ts";
import { prng } from "./lib/bench-synthetic.ts";
import { parseVars } from "./lib/bench-target.ts";
import { extractionCases, type SpeakerCase } from "./lib/extract-data.ts";
import { addScores, type FactOutcome, type SessionScore, scoreSession, turnRecallAt10 } from "./lib/extract-metrics.ts";
import { offlineChinese, offlineLocomo } from "./lib/extract-offline.ts";
import {
  addZh,
  scoreConversation,
  selectConversations,
  type ZhConversation,
  type ZhOutcome,
  type ZhScore,
  zhConversations,
} from "./lib/extract-zh.ts";
import { ScriptError } from "./lib/wrangler-d1.ts";

const USAGE =
  "usage: npm run bench:extract -- [--data <locomo.json>] [--zh bench/zh-extract.json] [--ids c25-c33,…] [--offline] [--show] [--unobserved N [--seed S]] [--json <out.json>] [--samples N] [--var NAME=VALUE …] [--keep]";
const LOCOMO_DEV = "../shared/data/locomo/locomo-dev.json";

function options() {
  const { values } = parseArgs({
    options: {
      data: { type: "string" },
      zh: { type: "string", default: "bench/zh-extract.json" },
      ids: { type: "string" },
      json: { type: "string" },
      samples: { type: "string" },
      offline: { type: "boolean" },
      show: { type: "boolean" },
      unobserved: { type: "string" },
      seed: { type: "string", default: "1" },
      keep: { type: "boolean" },
      var: { type: "string", multiple: true },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const unobserved = values.unobserved === undefined ? 0 : Number(values.unobserved);
  if (!(Number.isInteger(unobserved) && unobserved >= 0))
    throw new ScriptError("--unobserved must be a non-negative integer");
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new ScriptError("--seed must be an integer");
  const samples = values.samples === undefined ? Number.POSITIVE_INFINITY : Number(values.samples);
  if (!(samples >= 1)) throw new ScriptError("--samples must be a positive integer");
  const data = values.data ?? (existsSync(LOCOMO_DEV) ? LOCOMO_DEV : undefined);
  return {
    data,
    zh: values.zh!,
    ids: values.ids,
    json: values.json,
    samples,
    offline: values.offline ?? false,
    show: values.show ?? false,
    unobserved,
    seed,
    keep: values.keep ?? false,
    vars: parseVars(values.var),
  };
}

interface SummarizeAnswer {
  messages: number;
  outcomes: FactOutcome[];
}

async function summarize(s: Server, c: SpeakerCase, session: SpeakerCase["sessions"][number]) {
  const started = performance.now();
  const r = (await s.client.callTool({
    name: "summarize_conversation",
    arguments: {
      transcript: session.transcript,
      user_name: c.speaker,
      source: `${c.sampleId}/${session.name}`,
      user_id: c.userId,
      ...(session.date ? { event_time: session.date } : {}),
    },
  })) as { isError?: boolean; structuredContent?: SummarizeAnswer; content?: { text?: string }[] };
  const ms = performance.now() - started;
  if (r.isError || !r.structuredContent)
    throw new Error(`summarize_conversation failed for ${c.userId} ${session.name}: ${r.content?.[0]?.text}`);
  if (r.structuredContent.messages !== session.turns.length)
    throw new Error(
      `${c.sampleId} ${session.name}: the server read ${r.structuredContent.messages} messages, the session has ${session.turns.length} turns`,
    );
  return { ms, outcomes: r.structuredContent.outcomes };
}

interface CaseRun {
  score: SessionScore;
  sessions: { memories: number; ms: number }[];
  qa: number[];
  rawQa: number[];
  statuses: Map<string, number>;
}

async function runCase(s: Server, c: SpeakerCase): Promise<CaseRun> {
  const turnsOf = new Map<string, Set<string>>();
  let score: SessionScore = { observations: 0, covered: 0, stored: 0, precise: 0, noise: 0, filler: 0 };
  const sessions: CaseRun["sessions"] = [];
  const statuses = new Map<string, number>();
  for (const session of c.sessions) {
    const r = await summarize(s, c, session);
    for (const o of r.outcomes) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
    const one = scoreSession(session, c.speaker, r.outcomes, turnsOf);
    score = addScores(score, one);
    sessions.push({ memories: one.stored, ms: r.ms });
  }
  const raw = await importMemories(s, c.rawUserId, c.rawTurns);
  const qa: number[] = [];
  const rawQa: number[] = [];
  for (const q of c.questions) {
    const ex = await recall(s, c.userId, q.question);
    qa.push(turnRecallAt10(ex.ids, (id) => turnsOf.get(id) ?? [], q.relevant));
    const rw = await recall(s, c.rawUserId, q.question);
    rawQa.push(turnRecallAt10(rw.ids, (id) => [raw.externalOf.get(id) ?? id], q.relevant));
  }
  return { score, sessions, qa, rawQa, statuses };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const f3 = (x: number) => x.toFixed(3);

function report(runs: CaseRun[], cases: number) {
  const score = runs.map((r) => r.score).reduce(addScores);
  const sessions = runs.flatMap((r) => r.sessions);
  const qa = runs.flatMap((r) => r.qa);
  const rawQa = runs.flatMap((r) => r.rawQa);
  const outcomes: Record<string, number> = {};
  for (const r of runs) for (const [k, n] of r.statuses) outcomes[k] = (outcomes[k] ?? 0) + n;
  return {
    outcomes,
    speakers: cases,
    observations: score.observations,
    memories: score.stored,
    coverage: score.observations ? score.covered / score.observations : 0,
    precision: score.stored ? score.precise / score.stored : 0,
    noise: score.noise,
    filler: score.filler,
    questions: qa.length,
    qa_recall_at_10: mean(qa),
    raw_qa_recall_at_10: mean(rawQa),
    per_session: {
      sessions: sessions.length,
      memories_mean: mean(sessions.map((x) => x.memories)),
      ms_mean: mean(sessions.map((x) => x.ms)),
      ms_p95: percentile(
        sessions.map((x) => x.ms),
        95,
      ),
    },
  };
}

function print(r: ReturnType<typeof report>, llm: string) {
  console.log(`extraction (${llm}) — ${r.speakers} speakers, ${r.per_session.sessions} sessions`);
  console.log(`  coverage   ${f3(r.coverage)}  (${r.observations} observations)`);
  console.log(`  precision  ${f3(r.precision)}  (${r.memories} memories)`);
  console.log(
    `  outcomes   ${Object.entries(r.outcomes)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
  );
  console.log(`  noise      ${r.noise} from the other speaker; filler ${r.filler} from turns with no observation`);
  console.log(
    `  QA R@10    ${f3(r.qa_recall_at_10)} extracted store vs ${f3(r.raw_qa_recall_at_10)} raw turns (${r.questions} questions)`,
  );
  console.log(
    `  per session ${r.per_session.memories_mean.toFixed(1)} memories, ${r.per_session.ms_mean.toFixed(0)} ms mean, ${r.per_session.ms_p95.toFixed(0)} ms p95`,
  );
}

async function runChinese(s: Server, conversations: ZhConversation[]): Promise<Record<string, ZhScore>> {
  const bySplit: Record<string, ZhScore> = {};
  for (const c of conversations) {
    const r = (await s.client.callTool({
      name: "summarize_conversation",
      arguments: {
        messages: c.messages,
        event_time: c.date,
        source: `zh-extract/${c.id}`,
        user_id: `zh-extract-${c.id}`,
      },
    })) as { isError?: boolean; structuredContent?: { outcomes: ZhOutcome[] }; content?: { text?: string }[] };
    if (r.isError || !r.structuredContent)
      throw new Error(`summarize_conversation failed for ${c.id}: ${r.content?.[0]?.text}`);
    const one = scoreConversation(c, r.structuredContent.outcomes);
    const zero: ZhScore = { facts: 0, covered: 0, stored: 0, precise: 0, noise: 0 };
    bySplit[c.split] = addZh(bySplit[c.split] ?? zero, one);
  }
  return bySplit;
}

function printChinese(bySplit: Record<string, ZhScore>, conversations: ZhConversation[], how: string) {
  console.log(`Chinese extraction (${how}) — ${conversations.length} conversations`);
  for (const [split, z] of Object.entries(bySplit).sort()) {
    const coverage = z.facts ? z.covered / z.facts : 0;
    const precision = z.stored ? z.precise / z.stored : 0;
    console.log(
      `  ${split.padEnd(5)} coverage ${f3(coverage)} (${z.facts} facts)  precision ${f3(precision)} (${z.stored} memories)  noise ${z.noise}`,
    );
  }
}

/** The extractor alone, no server: what the offline rules keep, scored the same way. */
/** `n` of `items` drawn without replacement by a seeded shuffle (the same seed, the same draw). */
function draw<T>(items: T[], n: number, seed: number): T[] {
  const random = prng(seed);
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, n);
}

function runOffline(cases: SpeakerCase[], conversations: ZhConversation[], show: boolean) {
  const locomo = offlineLocomo(cases, show);
  const zh = offlineChinese(conversations, show);
  if (cases.length > 0) {
    const s = locomo.score;
    console.log(`extraction (offline rules, extractor alone) — ${cases.length} speakers, ${locomo.sessions} sessions`);
    console.log(
      `  coverage   ${f3(s.observations ? s.covered / s.observations : 0)}  (${s.observations} observations)`,
    );
    console.log(`  precision  ${f3(s.stored ? s.precise / s.stored : 0)}  (${s.stored} memories)`);
    console.log(`  noise      ${s.noise} from the other speaker; filler ${s.filler} from turns with no observation`);
  }
  printChinese(zh.bySplit, conversations, "offline rules, extractor alone");
  if (show) for (const line of [...locomo.shown, ...zh.shown]) console.log(line);
  return { locomo: cases.length > 0 ? locomo.score : null, zh: zh.bySplit, unobserved: locomo.unobserved };
}

async function main(): Promise<void> {
  const o = options();
  const all = o.data ? extractionCases(JSON.parse(readFileSync(o.data, "utf8"))) : [];
  const cases = all.filter((c) => Number(c.userId.split("-")[1]) < o.samples);
  const listed = zhConversations(JSON.parse(readFileSync(o.zh, "utf8")));
  const conversations = o.ids === undefined ? listed : selectConversations(listed, o.ids);
  say(`${o.data ?? "no LoCoMo file"}: ${cases.length} speakers; ${o.zh}: ${conversations.length} conversations`);
  const { unobserved, ...offline } = runOffline(cases, conversations, o.show);
  if (o.unobserved > 0) {
    const drawn = draw(unobserved, o.unobserved, o.seed);
    console.log(`${drawn.length} of ${unobserved.length} facts kept from turns with no observation (seed ${o.seed}):`);
    drawn.forEach((u, i) => console.log(`  ${i + 1}. ${u.diaId}  fact: ${u.fact}\n      turn: ${u.turn}`));
  }
  if (o.offline) {
    if (o.json) writeFileSync(o.json, `${JSON.stringify({ llm: "rules", offline }, null, 2)}\n`);
    return;
  }
  const { result, zh } = await withServer(
    o.keep,
    async (s) => {
      const runs: CaseRun[] = [];
      for (const c of cases) {
        say(`${c.sampleId} / ${c.speaker}: ${c.sessions.length} sessions, ${c.questions.length} questions`);
        runs.push(await runCase(s, c));
      }
      return { result: runs.length > 0 ? report(runs, cases.length) : null, zh: await runChinese(s, conversations) };
    },
    "bench-extract",
    o.vars,
  );
  if (result) print(result, "offline rules, through the server");
  printChinese(zh, conversations, "offline rules, through the server");
  if (o.json) {
    writeFileSync(o.json, `${JSON.stringify({ llm: "rules", ...result, zh, offline }, null, 2)}\n`);
    say(`wrote ${o.json}`);
  }
}

main().catch((err) => {
  console.error(`bench: ${err instanceof ScriptError ? err.message : ((err as Error).stack ?? String(err))}`);
  process.exit(1);
});
