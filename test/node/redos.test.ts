/**
 * Every regular expression that sees user text runs in linear time. Every regex
 * of src/ (redos-patterns.ts collects them) must be called safe by the `recheck` ReDoS checker, any
 * other verdict fails: vulnerable (exponential or polynomial, automaton or fuzz checker) or unsettled.
 * chrono-node's patterns (the recall query goes through its English parser) are checked the same way;
 * those it calls vulnerable are accepted only because time-expressions.ts bounds what chrono reads,
 * which the last test proves (and `npm run bench:redos` measures at that bound).
 *
 * Verdicts are deterministic: a fixed seed and no time limit anywhere in recheck (its fuzzer otherwise
 * stops on wall-clock limits, so a busy machine changed its answers), only its step limits. A full
 * check takes tens of minutes, so each verdict is committed in redos-verdicts.json under a key of
 * recheck's version, these parameters, the pattern's source and flags; a pattern whose key is not
 * there (new, or changed) is checked here, and must settle within LIVE_BUDGET_MS. Record new verdicts
 * with `REDOS_RECORD=1 npx vitest run --project node test/node/redos.test.ts`; with REDOS_RECHECK=1
 * every pattern is checked again and the file rewritten from scratch. There is no allow-list: a value
 * recheck could not settle as a regex is read by a scan instead (providers/rules/scanned-values.ts).
 * Runs in the Node project (vitest.config.ts): recheck drives a native binary workerd cannot start.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { check } from "recheck";
import { describe, expect, it } from "vitest";
import { chronoPatterns, distinct, type Found, ROOT, srcPatterns } from "./redos-patterns";

const VERDICTS_FILE = join(import.meta.dirname, "redos-verdicts.json");
const RECHECK_VERSION: string = JSON.parse(
  readFileSync(join(ROOT, "node_modules/recheck/package.json"), "utf8"),
).version;
/** Every wall-clock limit off (null, or recall validation skipped), the seed fixed: the verdict is a function of the key. */
const PARAMS = {
  randomSeed: 0,
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  recallTimeout: -1,
} as const;
const RECORD = process.env.REDOS_RECORD === "1" || process.env.REDOS_RECHECK === "1";
/** What one unrecorded pattern may take here before it fails as unsettled (recording waits longer). */
const LIVE_BUDGET_MS = RECORD ? 1_800_000 : 120_000;
/** chrono-node's verdicts gate nothing (the bound does), so an unsettled one is only reported. */
const CHRONO_BUDGET_MS = 20_000;
const CONCURRENCY = 2;

interface Verdict {
  where: string;
  source: string;
  flags: string;
  status: "safe" | "vulnerable" | "unsettled";
  checker?: string;
  complexity?: string;
  attack?: string;
}

const keyOf = (p: Found) =>
  createHash("sha256")
    .update(JSON.stringify([RECHECK_VERSION, PARAMS, p.source, p.flags]))
    .digest("hex")
    .slice(0, 24);

function recorded(): Record<string, Verdict> {
  if (process.env.REDOS_RECHECK === "1") return {};
  return (JSON.parse(readFileSync(VERDICTS_FILE, "utf8")) as { verdicts: Record<string, Verdict> }).verdicts;
}

async function checkOne(p: Found, budgetMs: number): Promise<Verdict> {
  const signal = AbortSignal.timeout(budgetMs);
  const r = await check(p.source, p.flags, { ...PARAMS, signal }).catch(() => null);
  const base = { where: p.where, source: p.source, flags: p.flags };
  if (r === null || r.status === "unknown") return { ...base, status: "unsettled" };
  if (r.status === "safe") return { ...base, status: "safe", checker: r.checker, complexity: r.complexity.type };
  return { ...base, status: "vulnerable", checker: r.checker, complexity: r.complexity.type, attack: r.attack.pattern };
}

/** Each pattern's verdict: the recorded one under its key, or a check now. */
async function verdicts(
  patterns: Found[],
  known: Record<string, Verdict>,
  budgetMs: number,
): Promise<Map<string, Verdict>> {
  const out = new Map<string, Verdict>();
  const todo = patterns.filter((p) => {
    const v = known[keyOf(p)];
    if (v) out.set(keyOf(p), { ...v, where: p.where });
    return !v;
  });
  if (todo.length > 0) console.warn(`recheck: ${todo.length} patterns without a recorded verdict, checking them now`);
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const p = todo[next++];
      out.set(keyOf(p), await checkOne(p, budgetMs));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}

const label = (v: Verdict) =>
  `${v.where}: /${v.source}/${v.flags} (${v.status}${v.complexity ? `, ${v.complexity} by ${v.checker}` : ""}${v.attack ? `, attack ${v.attack}` : ""})`;

describe("ReDoS: every regex that sees user text is linear", () => {
  const all = new Map<string, Verdict>();
  let known: Record<string, Verdict> = {};

  it("chrono-node's patterns are checked; those not called safe are read only through the bound", async () => {
    // First: chrono's load-time patterns are collected only while it loads.
    const patterns = distinct(await chronoPatterns());
    expect(patterns.length).toBeGreaterThan(50);
    known = recorded();
    const found = await verdicts(patterns, known, CHRONO_BUDGET_MS);
    for (const [k, v] of found) all.set(k, v);
    const notSafe = [...found.values()].filter((v) => v.status !== "safe");
    console.info(`chrono-node: ${patterns.length} patterns, ${notSafe.length} not called safe (bounded input):`);
    for (const v of notSafe) console.info(`  ${label(v)}`);
    // A bound on the input caps a polynomial pattern's cost; it does not cap an exponential one.
    expect(notSafe.filter((v) => v.complexity === "exponential").map(label)).toEqual([]);
  });

  it("recheck calls every pattern of src/ safe", async () => {
    const { patterns, unbuilt } = await srcPatterns();
    expect(unbuilt, "new RegExp inside functions cannot be checked; build the pattern at module level").toEqual([]);
    const unique = distinct(patterns);
    expect(unique.length).toBeGreaterThan(200);
    const found = await verdicts(unique, known, LIVE_BUDGET_MS);
    for (const [k, v] of found) all.set(k, v);
    if (RECORD) {
      const sorted = Object.fromEntries([...all].sort(([a], [b]) => a.localeCompare(b)));
      const header = { recheck: RECHECK_VERSION, params: PARAMS, verdicts: sorted };
      writeFileSync(VERDICTS_FILE, `${JSON.stringify(header, null, 2)}\n`);
    }
    expect([...found.values()].filter((v) => v.status !== "safe").map(label)).toEqual([]);
  });
});
