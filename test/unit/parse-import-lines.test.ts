import { describe, expect, it } from "vitest";
import { describeLineError, parseImportLines } from "../../src/memory/import/parse-import-lines";
import { LIMITS } from "../../src/memory/limits";

const body = (...lines: unknown[]) => lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n");

describe("parseImportLines", () => {
  it("accepts valid lines with their line numbers, skipping blank lines", () => {
    const parsed = parseImportLines(
      body({ content: "Likes tea", external_id: "m-1", source: "chat-9" }, "", "   ", {
        content: "Runs",
        event_time: "2023-05-08",
        tags: ["sport"],
      }),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.lines.map((l) => l.line)).toEqual([1, 4]);
    expect(parsed.lines[0].input).toEqual({ content: "Likes tea", external_id: "m-1", source: "chat-9" });
  });

  it("names the line, the field and the rule for every problem", () => {
    const parsed = parseImportLines(
      body(
        { content: "ok" },
        "[1, 2]",
        { content: "x", priority: 0 },
        { content: "x", event_time: "yesterday" },
        { content: "x", colour: "red" },
        { content: "x", external_id: " padded " },
      ),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.invalidLines).toBe(5);
    const text = parsed.errors.map(describeLineError);
    expect(text[0]).toBe("line 2: must be a JSON object");
    expect(text[1]).toMatch(/^line 3: priority: /);
    expect(text[2]).toMatch(/^line 4: event_time: /);
    expect(text[3]).toMatch(/^line 5: colour: is not an import field \(fields: content, category, /);
    expect(text[4]).toBe("line 6: external_id: must be non-empty, without control characters or surrounding spaces");
  });

  it("rejects an empty body and too many lines", () => {
    const empty = parseImportLines("\n\n");
    expect(empty.ok === false && describeLineError(empty.errors[0])).toBe(
      "the body has no lines: send one JSON object per line",
    );
    const many = parseImportLines(
      Array.from({ length: LIMITS.importLinesMax + 1 }, (_, i) => JSON.stringify({ content: `m${i}` })).join("\n"),
    );
    expect(many.ok === false && many.errors[0].message).toMatch(/^more than 5000 lines in one request/);
  });

  it("lists at most the configured number of errors but counts every bad line", () => {
    const parsed = parseImportLines(Array.from({ length: 150 }, () => "{").join("\n"));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toHaveLength(LIMITS.importErrorsMax);
    expect(parsed.invalidLines).toBe(150);
  });

  it("screens ids like content: a secret is redacted, and ids equal once redacted are duplicates", () => {
    const key = (c: string) => `hc_${c.repeat(40)}`;
    const parsed = parseImportLines(
      body(
        { content: "One", external_id: `t ${key("a")}`, derived_from: [`t ${key("c")}`] },
        { content: "Two", external_id: `t ${key("b")}` },
      ),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map(describeLineError)).toEqual(["line 2: external_id: duplicates line 1"]);
    const one = parseImportLines(
      body({ content: "One", external_id: `t ${key("a")}`, derived_from: [`t ${key("c")}`] }),
    );
    if (!one.ok) throw new Error("expected a valid line");
    expect(one.lines[0].input.external_id).toBe("t [REDACTED:hippocampus-key]");
    expect(one.lines[0].input.derived_from).toEqual(["t [REDACTED:hippocampus-key]"]);
  });
});
