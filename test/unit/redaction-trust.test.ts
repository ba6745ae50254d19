/**
 * Hippocampus's own keys and unlabelled OAuth tokens are redacted, and nothing
 * a log line carries can hold memory text (a D1 error quotes its bound parameters).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { consoleLogger } from "../../src/console-logger";
import { safeErrorText } from "../../src/memory/safe-error-text";
import { redactSecrets } from "../../src/memory/write/redact-secrets";

describe("redaction of this server's own credentials", () => {
  it("redacts an hc_ API key anywhere in the text", () => {
    const out = redactSecrets("my hippocampus key hc_0123456789abcdef0123456789abcdef01234567 for the bot");
    expect(out.text).toBe("my hippocampus key [REDACTED:hippocampus-key] for the bot");
    expect(out.redactions).toEqual([{ kind: "hippocampus-key", count: 1 }]);
  });

  it("redacts an unlabelled OAuth access token, keeping the user part", () => {
    const token = "default%2Falice:Ab3dEf6hIj9kLm2n:Zz9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF";
    const out = redactSecrets(`use ${token} tomorrow`);
    expect(out.text).toBe("use default%2Falice:[REDACTED:oauth-token] tomorrow");
  });

  it("leaves times and ratios alone", () => {
    expect(redactSecrets("meet at 10:30:15, ratio 3:2:1").redactions).toEqual([]);
  });
});

describe("logs never carry memory text", () => {
  afterEach(() => vi.restoreAllMocks());

  it("cuts a D1 error down to its kind", () => {
    const err = new Error("D1_TYPE_ERROR: Type 'object' not supported for value 'my diary says I love Sam'");
    expect(safeErrorText(err)).toBe("Error: D1_TYPE_ERROR");
    expect(safeErrorText(String(err))).toBe("Error: D1_TYPE_ERROR");
  });

  it("the console logger applies it to error and stack fields, whatever the caller passed", () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    const err = new Error("D1_ERROR: UNIQUE constraint failed with params: 'secret diary entry about Sam'");
    consoleLogger.error("unexpected error", { error: String(err), stack: err.stack });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("diary");
    expect(JSON.parse(lines[0]).error).toBe("Error: D1_ERROR");
  });
});
