/**
 * @module scripts/mutants
 * Guard mutation testing: applies each mutant of test/mutants/guards.json, one at a time, to a
 * throwaway copy of the working tree, runs the test files that must catch it, and fails if any
 * survives. Prints a table and the mutation score (docs/reliability.md, "Guard mutations").
 *   npm run mutants [-- --only id,id] [--full] [--json out.json] [--timeout 900] [--list path] [--no-baseline]
 * Exit status: 0 every mutant killed, 1 a mutant survived, 2 the run could not run (a mutant's
 * code not found, a mutant that does not parse, the tests failing without any mutant).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  applyMutant,
  checkMutants,
  copyRepo,
  type Mutant,
  type MutantResult,
  mutationScore,
  parseMutants,
  parseProblem,
  removeCopy,
  renderTable,
  restore,
  runCommand,
  testCommand,
  verdictOf,
} from "./lib/mutants.ts";

const { values: opts } = parseArgs({
  options: {
    list: { type: "string", default: "test/mutants/guards.json" },
    only: { type: "string" },
    full: { type: "boolean", default: false },
    json: { type: "string" },
    timeout: { type: "string", default: "900" },
    "no-baseline": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});

const repo = resolve(".");
const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};

function selected(): Mutant[] {
  const all = parseMutants(readFileSync(join(repo, opts.list), "utf8"));
  if (!opts.only) return all;
  const ids = opts.only.split(",");
  const unknown = ids.filter((id) => !all.some((m) => m.id === id));
  if (unknown.length > 0) fail(`unknown mutant ids: ${unknown.join(", ")}`);
  return all.filter((m) => ids.includes(m.id));
}

const log = (chunk: string) => {
  if (opts.verbose) process.stdout.write(chunk);
};

/** The tests pass on the unmutated copy (one vitest run per project), or a killed mutant would mean nothing. */
async function baseline(root: string, mutants: Mutant[], timeoutMs: number): Promise<void> {
  const byProject = new Map<string, Set<string>>();
  for (const m of mutants) {
    const files = byProject.get(m.project ?? "") ?? new Set<string>();
    for (const t of m.tests) files.add(t);
    byProject.set(m.project ?? "", files);
  }
  const runs: [string, string[]][] = opts.full ? [["all", testCommand(null, true)]] : [];
  if (!opts.full)
    for (const [project, files] of byProject)
      runs.push([
        project || "each file's project",
        ["npx", "vitest", "run", ...(project ? ["--project", project] : []), ...files],
      ]);
  for (const [name, cmd] of runs) {
    const started = Date.now();
    const code = await runCommand(cmd, root, timeoutMs * 4, log);
    console.log(`baseline ${name}: exit ${code} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    if (code !== 0) fail(`the tests fail (or time out) without any mutant (${name}): fix them first`);
  }
}

async function runOne(root: string, m: Mutant, timeoutMs: number): Promise<MutantResult> {
  const original = applyMutant(root, m);
  try {
    const problem = parseProblem(root, m);
    if (problem) fail(problem);
    const started = Date.now();
    let output = "";
    const code = await runCommand(testCommand(m, opts.full), root, timeoutMs, (chunk) => {
      output += chunk;
      log(chunk);
    });
    const verdict = verdictOf(code, output);
    if (verdict === "error")
      return fail(`${m.id}: vitest exited ${code} without a failed test:\n${output.slice(-2000)}`);
    return { mutant: m, verdict, seconds: (Date.now() - started) / 1000 };
  } finally {
    restore(root, m, original);
  }
}

async function main(): Promise<void> {
  const mutants = selected();
  const problems = checkMutants(repo, mutants);
  if (problems.length > 0) fail(`mutants that cannot be applied:\n  ${problems.join("\n  ")}`);
  const timeoutMs = Number(opts.timeout) * 1000;
  if (!(timeoutMs > 0)) fail("--timeout must be a positive number of seconds");
  const root = copyRepo(repo);
  console.log(`${mutants.length} mutants, copy at ${root}${opts.full ? ", whole suite each" : ""}`);
  const results: MutantResult[] = [];
  try {
    if (!opts["no-baseline"]) await baseline(root, mutants, timeoutMs);
    for (const [i, m] of mutants.entries()) {
      const r = await runOne(root, m, timeoutMs);
      results.push(r);
      console.log(`[${i + 1}/${mutants.length}] ${m.id}: ${r.verdict} (${r.seconds.toFixed(0)} s)`);
    }
  } finally {
    if (!opts.keep) removeCopy(root);
  }
  console.log(`\n${renderTable(results)}`);
  if (opts.json) {
    const out = results.map((r) => ({ id: r.mutant.id, file: r.mutant.file, verdict: r.verdict, seconds: r.seconds }));
    writeFileSync(opts.json, `${JSON.stringify({ score: mutationScore(results), results: out }, null, 2)}\n`);
  }
  const survivors = results.filter((r) => r.verdict === "survived");
  if (survivors.length > 0) {
    console.error(`\nsurvived: ${survivors.map((r) => r.mutant.id).join(", ")}`);
    process.exit(1);
  }
}

await main();
