/**
 * @module scripts/conformance
 * `npm run conformance [-- --json FILE] [--url URL --key KEY] [--keep]`: the official MCP
 * conformance suite (@modelcontextprotocol/conformance, pinned) against /mcp. Without --url it
 * starts a throwaway offline server (a fresh state directory, a user key) like the benchmarks do.
 * The suite cannot send a header of its own, so it talks to a loopback proxy that adds the key
 * (scripts/lib/auth-proxy.ts). Each server scenario runs with the committed baseline
 * (conformance-baseline.yml: the scenarios that cannot apply, each with its reason); one line per
 * scenario is printed, and the run fails on a failure outside the baseline or a baseline entry that
 * passes. Against a server that is not on loopback the DNS-rebinding scenario is skipped (it
 * applies to loopback servers only).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { isLoopbackUrl, startAuthProxy } from "./lib/auth-proxy.ts";
import { say, withBenchServer } from "./lib/bench-server.ts";
import {
  BaselineError,
  type Check,
  formatReport,
  jsonReport,
  parseBaseline,
  parseScenarioList,
  type ScenarioResult,
  scenarioResult,
  verdict,
} from "./lib/conformance-report.ts";
import { ScriptError } from "./lib/wrangler-d1.ts";

const CLI = resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");
const BASELINE = resolve("conformance-baseline.yml");
const LOOPBACK_ONLY_SCENARIOS = ["dns-rebinding-protection"];

/** Runs the suite's CLI (asynchronously: the proxy it talks to lives in this process). */
function conformance(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill(), 300_000);
    child.once("error", fail);
    child.once("close", (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr });
    });
  });
}

/** Runs one scenario against `url`; its checks come from the result directory the suite writes. */
async function runScenario(url: string, scenario: string, out: string): Promise<Check[]> {
  const dir = mkdtempSync(join(out, "run-"));
  const args = ["server", "--url", url, "--scenario", scenario, "--expected-failures", BASELINE, "-o", dir];
  const r = await conformance(args);
  const runs = readdirSync(dir);
  if (runs.length !== 1)
    throw new ScriptError(`conformance: ${scenario} wrote no result (exit ${r.status}):\n${r.stderr || r.stdout}`);
  return JSON.parse(readFileSync(join(dir, runs[0], "checks.json"), "utf8")) as Check[];
}

async function runSuite(target: string, key: string, baseline: Map<string, string>): Promise<ScenarioResult[]> {
  const mcp = new URL(target);
  const proxy = await startAuthProxy(mcp.origin, key);
  const out = mkdtempSync(join(tmpdir(), "hippocampus-conformance-"));
  try {
    const scenarios = parseScenarioList((await conformance(["list", "--server"])).stdout);
    if (scenarios.length === 0) throw new ScriptError("conformance: the suite listed no server scenarios");
    const skipped = isLoopbackUrl(mcp.href) ? [] : LOOPBACK_ONLY_SCENARIOS;
    const url = `${proxy.base}${mcp.pathname}`;
    const results: ScenarioResult[] = [];
    for (const s of scenarios.filter((name) => !skipped.includes(name)))
      results.push(scenarioResult(s, await runScenario(url, s, out), baseline));
    console.log(formatReport(results, baseline, skipped));
    const unknown = [...baseline.keys()].filter((name) => !scenarios.includes(name));
    if (unknown.length > 0) throw new ScriptError(`conformance: the baseline lists unknown scenarios: ${unknown}`);
    return results;
  } finally {
    await proxy.close();
    rmSync(out, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      key: { type: "string" },
      json: { type: "string" },
      keep: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log("npm run conformance [-- --json FILE] [--url https://host/mcp --key KEY] [--keep]");
    return;
  }
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 22)
    throw new ScriptError(`conformance: the suite needs Node 22 (this is ${process.version}); use npm run`);
  if ((values.url === undefined) !== (values.key === undefined))
    throw new ScriptError("conformance: --url and --key go together");
  const baseline = parseBaseline(readFileSync(BASELINE, "utf8"));
  const results =
    values.url !== undefined && values.key !== undefined
      ? await runSuite(values.url, values.key, baseline)
      : await withBenchServer(
          {
            keep: values.keep,
            keyOwner: { scope: "user", name: "conformance", account: "default", label: "conformance" },
          },
          (s) => runSuite(`${s.base}/mcp`, s.key, baseline),
        );
  if (values.json) writeFileSync(values.json, `${JSON.stringify(jsonReport(results), null, 2)}\n`);
  if (!verdict(results).ok) process.exitCode = 1;
}

main().catch((err: unknown) => {
  if (err instanceof ScriptError || err instanceof BaselineError) say(err.message);
  else say(String(err instanceof Error ? err.stack : err));
  process.exitCode = 1;
});
