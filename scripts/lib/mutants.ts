/**
 * @module scripts/lib/mutants
 * The guard-mutation runner's parts: the mutant list (test/mutants/guards.json) checked on load,
 * a throwaway copy of the repository (tracked and untracked files, node_modules linked), one
 * mutation applied to that copy (its code must occur exactly once), the verdicts, the table.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { transformSync } from "esbuild";

export interface Mutant {
  /** Short unique name, used by --only. */
  id: string;
  /** The guard this removes or weakens, in words. */
  guard: string;
  file: string;
  /** The exact code to replace: it must occur exactly once in `file`. */
  code: string;
  replacement: string;
  /** Test files that must fail with the mutant in place. */
  tests: string[];
  /**
   * Vitest project of those files (vitest.config.ts). Unset: vitest runs each file in the one project
   * that includes it (unit, main, or a variant such as free-plan).
   */
  project?: string;
}

export type Verdict = "killed" | "survived" | "timeout";

export interface MutantResult {
  mutant: Mutant;
  verdict: Verdict;
  seconds: number;
}

const TEXT_FIELDS = ["id", "guard", "file", "code", "replacement"] as const;

/** The list, each entry checked field by field; throws naming the entry and the field. */
export function parseMutants(text: string): Mutant[] {
  const raw: unknown = JSON.parse(text);
  if (!Array.isArray(raw)) throw new Error("mutants: the list must be a JSON array");
  const seen = new Set<string>();
  return raw.map((entry: Record<string, unknown>, i) => {
    const where = `mutants[${i}]${typeof entry?.id === "string" ? ` (${entry.id})` : ""}`;
    for (const field of TEXT_FIELDS)
      if (typeof entry?.[field] !== "string" || (field !== "replacement" && entry[field] === ""))
        throw new Error(`${where}: ${field} must be a non-empty string`);
    if (!Array.isArray(entry.tests) || entry.tests.length === 0 || entry.tests.some((t) => typeof t !== "string"))
      throw new Error(`${where}: tests must be a non-empty list of test files`);
    if (entry.project !== undefined && typeof entry.project !== "string")
      throw new Error(`${where}: project must be a string`);
    if (entry.code === entry.replacement) throw new Error(`${where}: replacement equals code`);
    if (seen.has(entry.id as string)) throw new Error(`${where}: id is used twice`);
    seen.add(entry.id as string);
    return entry as unknown as Mutant;
  });
}

/** How often `code` occurs in `text` (non-overlapping). */
export function occurrences(text: string, code: string): number {
  return text.split(code).length - 1;
}

/** Every problem that would make a mutant meaningless: its file, code or tests missing, its code ambiguous. */
export function checkMutants(root: string, mutants: Mutant[]): string[] {
  const problems: string[] = [];
  for (const m of mutants) {
    const path = join(root, m.file);
    if (!existsSync(path)) {
      problems.push(`${m.id}: ${m.file} does not exist`);
      continue;
    }
    const n = occurrences(readFileSync(path, "utf8"), m.code);
    if (n !== 1) problems.push(`${m.id}: its code occurs ${n} times in ${m.file} (must be exactly once)`);
    for (const t of m.tests) if (!existsSync(join(root, t))) problems.push(`${m.id}: test file ${t} does not exist`);
  }
  return problems;
}

/** Writes the mutant into the copy at `root`; returns the original text for `restore`. */
export function applyMutant(root: string, m: Mutant): string {
  const path = join(root, m.file);
  const original = readFileSync(path, "utf8");
  const n = occurrences(original, m.code);
  if (n !== 1) throw new Error(`${m.id}: its code occurs ${n} times in ${m.file} (must be exactly once)`);
  writeFileSync(
    path,
    original.replace(m.code, () => m.replacement),
  );
  return original;
}

/** Null when the mutated file still parses (TypeScript/TSX), else esbuild's first error: a mutant must be code. */
export function parseProblem(root: string, m: Mutant): string | null {
  const ext = extname(m.file).slice(1);
  if (!["ts", "tsx", "js", "mjs"].includes(ext)) return null;
  try {
    transformSync(readFileSync(join(root, m.file), "utf8"), {
      loader: ext === "mjs" ? "js" : (ext as "ts"),
      logLevel: "silent",
    });
    return null;
  } catch (err) {
    return `${m.id}: the mutated ${m.file} does not parse: ${String(err).split("\n")[0]}`;
  }
}

export function restore(root: string, m: Mutant, original: string): void {
  writeFileSync(join(root, m.file), original);
}

/** Files git knows of or would add (tracked and untracked, ignored ones left out), relative to `repo`. */
export function repoFiles(repo: string): string[] {
  const out = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repo,
    encoding: "utf8",
  });
  if (out.status !== 0) throw new Error(`git ls-files failed in ${repo}: ${out.stderr}`);
  return out.stdout.split("\0").filter((f) => f !== "" && existsSync(join(repo, f)));
}

/** A throwaway copy of the working tree (uncommitted changes included) with node_modules linked, never copied. */
export function copyRepo(repo: string): string {
  const root = mkdtempSync(join(tmpdir(), "hippocampus-mutants-"));
  for (const f of repoFiles(repo)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    cpSync(join(repo, f), join(root, f));
  }
  if (existsSync(join(repo, "node_modules"))) symlinkSync(resolve(repo, "node_modules"), join(root, "node_modules"));
  return root;
}

export function removeCopy(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** Runs a command in `cwd`; resolves with its exit code (null on timeout, after killing its process group). */
export function runCommand(
  cmd: string[],
  cwd: string,
  timeoutMs: number,
  log: (chunk: string) => void,
): Promise<number | null> {
  return new Promise((done) => {
    const child = spawn(cmd[0], cmd.slice(1), { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (d: Buffer) => log(d.toString()));
    child.stderr.on("data", (d: Buffer) => log(d.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      done(timedOut ? null : (code ?? 1));
    });
  });
}

/** The vitest command for a mutant's files, or for the whole suite. */
export function testCommand(m: Mutant | null, full: boolean): string[] {
  if (full || m === null) return ["npx", "vitest", "run"];
  const project = m.project === undefined ? [] : ["--project", m.project];
  return ["npx", "vitest", "run", ...project, ...m.tests];
}

/**
 * A run's verdict: exit 0 survived, no exit (timeout) timeout, a failing exit killed only when vitest
 * reported failed tests; any other failure (vitest could not start, a file did not load) is an error.
 */
export function verdictOf(code: number | null, output: string): Verdict | "error" {
  if (code === null) return "timeout";
  if (code === 0) return "survived";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: vitest colours its summary with ANSI escapes
  const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
  return /^\s*Tests\s+\d+ failed/m.test(plain) ? "killed" : "error";
}

/** Killed (timeouts count as killed, as in Stryker) over all, as a percentage with one decimal. */
export function mutationScore(results: MutantResult[]): number {
  if (results.length === 0) return 0;
  const killed = results.filter((r) => r.verdict !== "survived").length;
  return Math.round((killed / results.length) * 1000) / 10;
}

export function renderTable(results: MutantResult[]): string {
  const rows = results.map((r) => [r.mutant.id, r.verdict, `${r.seconds.toFixed(0)} s`, r.mutant.file, r.mutant.guard]);
  const head = ["mutant", "verdict", "time", "file", "guard"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  const killed = results.filter((r) => r.verdict !== "survived").length;
  return [
    line(head),
    ...rows.map(line),
    "",
    `mutation score ${mutationScore(results)} % (${killed} of ${results.length} killed)`,
  ].join("\n");
}
