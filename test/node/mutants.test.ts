/**
 * The guard-mutation runner (scripts/mutants.ts, scripts/lib/mutants.ts): its list is checked entry
 * by entry, a mutant whose code is not found (or found twice) stops the run before anything runs,
 * mutations land in a throwaway copy only, and a whole run on a tiny repository reports a killed
 * and a surviving mutant, its table, score and JSON, and exits 1 for the survivor.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  applyMutant,
  checkMutants,
  copyRepo,
  type Mutant,
  parseMutants,
  parseProblem,
  removeCopy,
  restore,
  verdictOf,
} from "../../scripts/lib/mutants";

const ROOT = join(import.meta.dirname, "../..");
const GUARD = 'export function allowed(who) {\n  if (who !== "owner") return false;\n  return true;\n}\n';
const TEST = `import { expect, it } from "vitest";
import { allowed } from "../src/guard.js";
it("refuses a stranger", () => expect(allowed("stranger")).toBe(false));
it("lets the owner in", () => expect(allowed("owner")).toBe(true));
`;
const CONFIG = `export default { test: { projects: [{ test: { name: "main", include: ["t/**/*.test.ts"], environment: "node" } }] } };\n`;

const killed: Mutant = {
  id: "guard-removed",
  guard: "strangers refused",
  file: "src/guard.js",
  code: '  if (who !== "owner") return false;\n',
  replacement: "",
  tests: ["t/guard.test.ts"],
};
const survivor: Mutant = { ...killed, id: "equivalent", code: "  return true;", replacement: "  return !false;" };

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A git repository with a guard, its test, a vitest config and node_modules linked to this repo's. */
function tinyRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), "mutants-test-"));
  made.push(dir);
  mkdirSync(join(dir, "src"));
  mkdirSync(join(dir, "t"));
  writeFileSync(join(dir, "src/guard.js"), GUARD);
  writeFileSync(join(dir, "t/guard.test.ts"), TEST);
  writeFileSync(join(dir, "vitest.config.mjs"), CONFIG);
  writeFileSync(join(dir, ".gitignore"), "node_modules\n");
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  const git = (...args: string[]) => spawnSync("git", args, { cwd: dir, encoding: "utf8" });
  git("init", "-q");
  git("add", "src/guard.js", "vitest.config.mjs", ".gitignore");
  return dir;
}

describe("the mutant list", () => {
  it("names the entry and the field that is wrong", () => {
    expect(() => parseMutants("{}")).toThrow(/JSON array/);
    expect(() => parseMutants(JSON.stringify([{ ...killed, code: "" }]))).toThrow(
      /mutants\[0\] \(guard-removed\): code/,
    );
    expect(() => parseMutants(JSON.stringify([{ ...killed, tests: [] }]))).toThrow(/tests must be a non-empty list/);
    expect(() => parseMutants(JSON.stringify([killed, killed]))).toThrow(/mutants\[1\].*id is used twice/);
    expect(() => parseMutants(JSON.stringify([{ ...killed, replacement: killed.code }]))).toThrow(/equals code/);
    expect(parseMutants(JSON.stringify([killed]))).toEqual([killed]);
  });

  it("the project's own list parses and every mutant applies to exactly one place", () => {
    const list = parseMutants(readFileSync(join(ROOT, "test/mutants/guards.json"), "utf8"));
    expect(list.length).toBeGreaterThan(0);
    expect(checkMutants(ROOT, list)).toEqual([]);
  });
});

describe("a run's verdict", () => {
  it("is killed only when vitest reports a failed test; another failure is an error", () => {
    expect(verdictOf(0, "Tests  2 passed (2)")).toBe("survived");
    expect(verdictOf(1, "\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[31m1 failed\u001b[39m | 1 passed (2)")).toBe(
      "killed",
    );
    expect(verdictOf(1, "Error: Cannot find module 'vitest/config'")).toBe("error");
    expect(verdictOf(null, "")).toBe("timeout");
  });
});

describe("applying a mutant", () => {
  it("fails loudly when its code is not found, or found twice, and names the mutant and the file", () => {
    const repo = tinyRepo();
    const missing = { ...killed, id: "gone", code: "if (who === 'admin')" };
    const twice = { ...killed, id: "twice", code: "return" };
    const noTest = { ...killed, id: "no-test", tests: ["t/none.test.ts"] };
    expect(checkMutants(repo, [missing, twice, noTest, killed])).toEqual([
      "gone: its code occurs 0 times in src/guard.js (must be exactly once)",
      "twice: its code occurs 2 times in src/guard.js (must be exactly once)",
      "no-test: test file t/none.test.ts does not exist",
    ]);
    expect(() => applyMutant(repo, missing)).toThrow("gone: its code occurs 0 times in src/guard.js");
    expect(readFileSync(join(repo, "src/guard.js"), "utf8")).toBe(GUARD);
  });

  it("changes the throwaway copy only, links node_modules, and restores the file", () => {
    const repo = tinyRepo();
    const copy = copyRepo(repo);
    made.push(copy);
    expect(readFileSync(join(copy, "t/guard.test.ts"), "utf8")).toBe(TEST); // untracked files come too
    expect(lstatSync(join(copy, "node_modules")).isSymbolicLink()).toBe(true);
    expect(existsSync(join(copy, ".git"))).toBe(false);
    const original = applyMutant(copy, killed);
    expect(readFileSync(join(copy, "src/guard.js"), "utf8")).not.toContain('who !== "owner"');
    expect(readFileSync(join(repo, "src/guard.js"), "utf8")).toBe(GUARD);
    expect(parseProblem(copy, killed)).toBeNull();
    restore(copy, killed, original);
    expect(readFileSync(join(copy, "src/guard.js"), "utf8")).toBe(GUARD);
    const broken = { ...killed, id: "broken", replacement: "  if (who !== { return false;\n" };
    applyMutant(copy, broken);
    expect(parseProblem(copy, broken)).toMatch(/^broken: the mutated src\/guard.js does not parse/);
    removeCopy(copy);
    expect(existsSync(copy)).toBe(false);
  });
});

describe("npm run mutants on a tiny repository", () => {
  const run = (repo: string, args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, "scripts/mutants.ts"), ...args], {
      cwd: repo,
      encoding: "utf8",
      timeout: 300_000,
    });

  it("kills one mutant, reports the survivor, prints the table and score, writes JSON and exits 1", () => {
    const repo = tinyRepo();
    writeFileSync(join(repo, "mutants.json"), JSON.stringify([killed, survivor]));
    const r = run(repo, ["--list", "mutants.json", "--json", "out.json"]);
    expect(r.stdout).toMatch(/baseline each file's project: exit 0/);
    expect(r.stdout).toMatch(/guard-removed\s+killed/);
    expect(r.stdout).toMatch(/equivalent\s+survived/);
    expect(r.stdout).toContain("mutation score 50 % (1 of 2 killed)");
    expect(r.stderr).toContain("survived: equivalent");
    expect(r.status).toBe(1);
    const json = JSON.parse(readFileSync(join(repo, "out.json"), "utf8"));
    expect(json.score).toBe(50);
    expect(json.results.map((x: { id: string; verdict: string }) => [x.id, x.verdict])).toEqual([
      ["guard-removed", "killed"],
      ["equivalent", "survived"],
    ]);
    expect(readFileSync(join(repo, "src/guard.js"), "utf8")).toBe(GUARD);
  });

  it("exits 0 when every mutant is killed, and 2 before running anything when a mutant's code is not found", () => {
    const repo = tinyRepo();
    writeFileSync(join(repo, "mutants.json"), JSON.stringify([killed]));
    const ok = run(repo, ["--list", "mutants.json", "--no-baseline"]);
    expect(ok.stdout).toContain("mutation score 100 % (1 of 1 killed)");
    expect(ok.status).toBe(0);
    writeFileSync(join(repo, "bad.json"), JSON.stringify([killed, { ...survivor, code: "return maybe;" }]));
    const bad = run(repo, ["--list", "bad.json"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("equivalent: its code occurs 0 times in src/guard.js");
    expect(bad.stdout).not.toContain("baseline");
  });
});
