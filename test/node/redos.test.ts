/**
 * Issue 11, finding 5: every regular expression in src/ must run in linear time. This collects each
 * regex literal of every source file (parsed, not grepped) and every `new RegExp(…)` a module builds
 * when it loads, and asks the `recheck` ReDoS checker about each; the test fails on any pattern it
 * calls vulnerable with a verdict that does not depend on the machine's speed: exponential from either
 * checker, and polynomial from the automaton checker (complete and deterministic where it applies).
 * Polynomial verdicts of the fuzz checker still change with the time it is given; those not reviewed in
 * redos-reviewed.ts (input capped before the pattern runs) are reported. A `new RegExp` that only runs inside a function cannot be collected, so the test
 * also fails when a file builds more patterns than its import produced: build them at module level.
 * Runs in the Node project (vitest.config.ts): recheck drives a native binary workerd cannot start.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import * as acorn from "acorn";
import * as walk from "acorn-walk";
import { check } from "recheck";
import { describe, expect, it } from "vitest";
import { REVIEWED_POLYNOMIAL } from "./redos-reviewed";

const ROOT = join(import.meta.dirname, "../..");
/** Per-pattern budget: a pattern recheck cannot settle in time is reported, not failed. */
const TIMEOUT_MS = 4000;
/** Patterns checked at once (recheck's native agent takes concurrent requests). */
const CONCURRENCY = 4;
/** The fuzz checker's seed, fixed (recheck's default, said aloud): its remaining variance is the time limits. */
const PARAMS = { timeout: TIMEOUT_MS, randomSeed: 0 } as const;

interface Found {
  where: string;
  source: string;
  flags: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

function scan(file: string): { literals: Found[]; constructed: number } {
  const js = stripTypeScriptTypes(readFileSync(file, "utf8"), { mode: "transform" });
  const ast = acorn.parse(js, { ecmaVersion: "latest", sourceType: "module", locations: true });
  const literals: Found[] = [];
  let constructed = 0;
  walk.full(ast, (node) => {
    const n = node as acorn.Node & {
      regex?: { pattern: string; flags: string };
      callee?: { type: string; name?: string };
      loc?: acorn.SourceLocation;
    };
    if (n.type === "Literal" && n.regex)
      literals.push({ where: relative(ROOT, file), source: n.regex.pattern, flags: n.regex.flags });
    if ((n.type === "NewExpression" || n.type === "CallExpression") && n.callee?.name === "RegExp") constructed++;
  });
  return { literals, constructed };
}

/** Patterns a module builds with `new RegExp` while it loads. */
async function constructedOnImport(file: string): Promise<Found[]> {
  const found: Found[] = [];
  const Original = globalThis.RegExp;
  globalThis.RegExp = new Proxy(Original, {
    construct(target, args: [string | RegExp, string?]) {
      const re = new target(...args);
      found.push({ where: relative(ROOT, file), source: re.source, flags: re.flags });
      return re;
    },
  });
  try {
    await import(`${pathToFileURL(file).href}?redos=${Date.now()}`);
  } finally {
    globalThis.RegExp = Original;
  }
  return found;
}

describe("ReDoS: every regex in src/ is linear", () => {
  it("recheck finds no vulnerable pattern", async () => {
    const patterns: Found[] = [];
    const unbuilt: string[] = [];
    for (const file of sourceFiles(join(ROOT, "src"))) {
      const { literals, constructed } = scan(file);
      patterns.push(...literals);
      if (constructed === 0) continue;
      const built = await constructedOnImport(file);
      if (built.length < constructed)
        unbuilt.push(`${relative(ROOT, file)}: ${constructed} sites, ${built.length} built`);
      patterns.push(...built);
    }
    expect(unbuilt, "new RegExp inside functions cannot be checked; build the pattern at module level").toEqual([]);
    expect(patterns.length).toBeGreaterThan(100);
    const unique = [...new Map(patterns.map((p) => [`/${p.source}/${p.flags}`, p])).values()];
    const vulnerable: string[] = [];
    const unsettled: string[] = [];
    // Polynomial verdicts come from time-limited fuzzing and change between runs on the same code (seen:
    // 15, then 12, then 3 different patterns), so they are reported, not failed; exponential ones fail.
    const unreviewed: string[] = [];
    const noLongerFlagged: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < unique.length) {
        const p = unique[next++];
        const r = await check(p.source, p.flags, PARAMS);
        const label = `${p.where}: /${p.source}/${p.flags}`;
        const key = `/${p.source}/${p.flags}`;
        // The automaton's verdict is a proof, reviewed list or not: a proven polynomial pattern is rewritten.
        if (r.status === "vulnerable" && (r.complexity.type === "exponential" || r.checker === "automaton"))
          vulnerable.push(`${label} (${r.complexity.type} by ${r.checker}, attack ${r.attack.pattern})`);
        else if (r.status === "vulnerable" && !REVIEWED_POLYNOMIAL.has(key))
          unreviewed.push(`${label} (${r.complexity.type}, attack ${r.attack.pattern})`);
        else if (r.status === "safe" && REVIEWED_POLYNOMIAL.has(key)) noLongerFlagged.push(label);
        else if (r.status === "unknown") unsettled.push(label);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    if (unsettled.length > 0) console.warn(`recheck could not settle ${unsettled.length} patterns in ${TIMEOUT_MS} ms`);
    // recheck's polynomial verdicts come from time-limited fuzzing and differ between runs on the same
    // code, so a reviewed entry reported safe once is a hint to re-check by hand, not a failure.
    if (noLongerFlagged.length > 0)
      console.warn(`reported safe in this run (review test/node/redos-reviewed.ts): ${noLongerFlagged.join("; ")}`);
    if (unreviewed.length > 0)
      console.warn(`polynomial, not in redos-reviewed.ts (input capped; rewrite candidates): ${unreviewed.join("; ")}`);
    expect(vulnerable).toEqual([]);
  });
});
