/**
 * @module scripts/lib/conformance-report
 * The pure half of `npm run conformance`: the expected-failures baseline (the suite's
 * `--expected-failures` YAML, each entry with its reason as a trailing comment), a scenario's
 * outcome from its `checks.json`, the verdict the suite itself gives (an unexpected failure or a
 * stale baseline entry fails the run), and the report printed and written by `--json`.
 */

/** One conformance check as the suite writes it to checks.json. */
export interface Check {
  id?: string;
  name?: string;
  status: string;
  errorMessage?: string;
}

export interface ScenarioResult {
  name: string;
  /** Checks with status SUCCESS. */
  passed: number;
  /** Checks with status FAILURE or WARNING (the suite fails a scenario on either). */
  failed: number;
  /** The scenario is in the baseline. */
  expected_failure: boolean;
  /** First failing check's message, when one failed. */
  error?: string;
}

export class BaselineError extends Error {}

/**
 * The `server:` entries of a baseline with their reasons: `  - name # why it cannot apply`. An
 * entry without a reason, a repeated entry or an unknown section is an error naming the line.
 */
export function parseBaseline(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  let section: string | null = null;
  text.split("\n").forEach((raw, index) => {
    const line = raw.trimEnd();
    const where = `baseline line ${index + 1}`;
    if (line.trim() === "" || line.trimStart().startsWith("#")) return;
    if (!line.startsWith(" ") && line.endsWith(":")) {
      section = line.slice(0, -1);
      if (section !== "server" && section !== "client")
        throw new BaselineError(`${where}: unknown section "${section}"`);
      return;
    }
    const item = line.trimStart();
    if (section === null || !item.startsWith("- "))
      throw new BaselineError(`${where}: expected "  - scenario # reason"`);
    if (section !== "server") return;
    const hash = item.indexOf("#");
    const name = (hash === -1 ? item.slice(2) : item.slice(2, hash)).trim();
    const reason = hash === -1 ? "" : item.slice(hash + 1).trim();
    if (name === "") throw new BaselineError(`${where}: an entry needs a scenario name`);
    if (reason === "")
      throw new BaselineError(`${where}: "${name}" needs its reason as a comment (# why it cannot apply)`);
    if (entries.has(name)) throw new BaselineError(`${where}: "${name}" is listed twice`);
    entries.set(name, reason);
  });
  return entries;
}

/** A scenario's outcome from its checks, marked expected when the baseline lists it. */
export function scenarioResult(name: string, checks: Check[], baseline: Map<string, string>): ScenarioResult {
  const failing = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
  const result: ScenarioResult = {
    name,
    passed: checks.filter((c) => c.status === "SUCCESS").length,
    failed: failing.length,
    expected_failure: baseline.has(name),
  };
  const error = failing.find((c) => c.errorMessage)?.errorMessage;
  if (error !== undefined) result.error = error;
  return result;
}

export interface Verdict {
  /** Failed and not in the baseline. */
  unexpected: string[];
  /** In the baseline but passed: the entry must go. */
  stale: string[];
  ok: boolean;
}

/** The suite's own rule: a failure outside the baseline, or a baseline entry that passes, fails the run. */
export function verdict(results: ScenarioResult[]): Verdict {
  const unexpected = results.filter((r) => r.failed > 0 && !r.expected_failure).map((r) => r.name);
  const stale = results.filter((r) => r.failed === 0 && r.expected_failure).map((r) => r.name);
  return { unexpected, stale, ok: unexpected.length === 0 && stale.length === 0 };
}

/** One line per scenario, then the verdict. */
export function formatReport(results: ScenarioResult[], baseline: Map<string, string>, skipped: string[]): string {
  const lines = results.map((r) => {
    const checks = `${r.passed}/${r.passed + r.failed} checks`;
    if (r.expected_failure && r.failed > 0) return `  xfail  ${r.name} — ${baseline.get(r.name)}`;
    if (r.expected_failure)
      return `  STALE  ${r.name} — passes (${checks}) but the baseline lists it: remove the entry`;
    if (r.failed > 0) return `  FAIL   ${r.name} (${checks})${r.error ? `: ${r.error}` : ""}`;
    return `  pass   ${r.name} (${checks})`;
  });
  for (const name of skipped) lines.push(`  skip   ${name} — applies to a server on loopback only`);
  const v = verdict(results);
  const passed = results.filter((r) => r.failed === 0 && !r.expected_failure).length;
  const xfail = results.filter((r) => r.failed > 0 && r.expected_failure).length;
  lines.push(
    `conformance: ${passed} passed, ${xfail} expected failures (cannot apply), ${v.unexpected.length} failed, ${v.stale.length} stale`,
  );
  return lines.join("\n");
}

/** The --json document. */
export function jsonReport(results: ScenarioResult[]): { scenarios: Omit<ScenarioResult, "error">[] } {
  return {
    scenarios: results.map(({ name, passed, failed, expected_failure }) => ({
      name,
      passed,
      failed,
      expected_failure,
    })),
  };
}

/** Scenario names from `conformance list --server` (lines `  - name [versions]`). */
export function parseScenarioList(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("- "))
    .map((line) => line.slice(2).split(" ")[0]);
}
