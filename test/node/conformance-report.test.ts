/**
 * The pure half of `npm run conformance` (scripts/lib/conformance-report.ts): the committed baseline
 * parses, every entry carries its reason, and the verdict is the suite's own (an unexpected failure
 * or a stale entry fails the run). Also the loopback proxy's Host rule (scripts/lib/auth-proxy.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forwardedHost, isLoopbackUrl } from "../../scripts/lib/auth-proxy.ts";
import {
  BaselineError,
  formatReport,
  jsonReport,
  parseBaseline,
  parseScenarioList,
  scenarioResult,
  verdict,
} from "../../scripts/lib/conformance-report.ts";

const ROOT = join(import.meta.dirname, "../..");
const ok = { status: "SUCCESS" };
const bad = { status: "FAILURE", errorMessage: "Tool test_simple_text not found" };

describe("the expected-failures baseline", () => {
  it("reads the committed file: server entries, each with its reason", () => {
    const baseline = parseBaseline(readFileSync(join(ROOT, "conformance-baseline.yml"), "utf8"));
    expect(baseline.size).toBeGreaterThan(0);
    for (const reason of baseline.values()) expect(reason.length).toBeGreaterThan(10);
    // What applies to this server must never be excused.
    for (const applies of ["server-initialize", "ping", "tools-list", "resources-list", "prompts-list"])
      expect(baseline.has(applies)).toBe(false);
    expect(baseline.has("dns-rebinding-protection")).toBe(false);
    expect(baseline.has("logging-set-level")).toBe(false);
  });

  it("parses entries and reasons, and skips the client section", () => {
    const text = "# head\nserver:\n  - tools-call-image # fixture tool\n\nclient:\n  - sse-retry # n/a\n";
    expect([...parseBaseline(text)]).toEqual([["tools-call-image", "fixture tool"]]);
  });

  it("refuses an entry without a reason, a repeated entry and an unknown section, naming the line", () => {
    expect(() => parseBaseline("server:\n  - ping\n")).toThrow(/line 2: "ping" needs its reason/);
    expect(() => parseBaseline("server:\n  - ping # a\n  - ping # b\n")).toThrow(/line 3: "ping" is listed twice/);
    expect(() => parseBaseline("servers:\n  - ping # a\n")).toThrow(BaselineError);
    expect(() => parseBaseline("  - ping # a\n")).toThrow(/line 1: expected/);
  });
});

describe("scenario results and the verdict", () => {
  const baseline = new Map([
    ["tools-call-image", "fixture tool"],
    ["prompts-get-simple", "fixture prompt"],
  ]);

  it("counts checks (a WARNING fails a scenario, as in the suite) and marks baseline entries", () => {
    expect(scenarioResult("ping", [ok, ok], baseline)).toEqual({
      name: "ping",
      passed: 2,
      failed: 0,
      expected_failure: false,
    });
    expect(scenarioResult("tools-call-image", [bad], baseline)).toMatchObject({ failed: 1, expected_failure: true });
    expect(scenarioResult("x", [ok, { status: "WARNING" }, { status: "INFO" }], baseline).failed).toBe(1);
  });

  it("fails on a failure outside the baseline and on a stale entry; passes on expected failures", () => {
    const pass = scenarioResult("ping", [ok], baseline);
    const expected = scenarioResult("tools-call-image", [bad], baseline);
    const regression = scenarioResult("tools-list", [bad], baseline);
    const stale = scenarioResult("prompts-get-simple", [ok], baseline);
    expect(verdict([pass, expected])).toEqual({ unexpected: [], stale: [], ok: true });
    expect(verdict([pass, regression])).toMatchObject({ unexpected: ["tools-list"], ok: false });
    expect(verdict([pass, stale])).toMatchObject({ stale: ["prompts-get-simple"], ok: false });
  });

  it("prints one line per scenario and the totals last; --json holds name, passed, failed, expected_failure", () => {
    const results = [
      scenarioResult("ping", [ok], baseline),
      scenarioResult("tools-call-image", [bad], baseline),
      scenarioResult("tools-list", [bad], baseline),
    ];
    const lines = formatReport(results, baseline, ["dns-rebinding-protection"]).split("\n");
    expect(lines).toEqual([
      "  pass   ping (1/1 checks)",
      "  xfail  tools-call-image — fixture tool",
      "  FAIL   tools-list (0/1 checks): Tool test_simple_text not found",
      "  skip   dns-rebinding-protection — applies to a server on loopback only",
      "conformance: 1 passed, 1 expected failures (cannot apply), 1 failed, 0 stale",
    ]);
    expect(jsonReport(results).scenarios[1]).toEqual({
      name: "tools-call-image",
      passed: 0,
      failed: 1,
      expected_failure: true,
    });
  });

  it("reads scenario names from the suite's list output", () => {
    const text =
      "Server scenarios (test against a server):\n  - server-initialize [2025-06-18,2025-11-25]\n  - ping [x]\n";
    expect(parseScenarioList(text)).toEqual(["server-initialize", "ping"]);
  });
});

describe("the key-adding proxy's Host", () => {
  const proxy = "127.0.0.1:5000";
  it("passes Host through to a loopback target, so the server's rebinding guard sees it", () => {
    const target = new URL("http://127.0.0.1:8787");
    expect(forwardedHost("evil.example.com", proxy, target)).toBe("evil.example.com");
    expect(forwardedHost(proxy, proxy, target)).toBe(proxy);
  });
  it("gives a remote target its own Host when the proxy itself was addressed", () => {
    const target = new URL("https://memory.example.com");
    expect(forwardedHost(proxy, proxy, target)).toBe("memory.example.com");
    expect(forwardedHost(undefined, proxy, target)).toBe("memory.example.com");
    expect(isLoopbackUrl("http://[::1]:8787/mcp")).toBe(true);
    expect(isLoopbackUrl("https://memory.example.com/mcp")).toBe(false);
  });
});
