/**
 * JSON Lines whose first line is broken used to be detected as plain text and imported line by
 * line, JSON and all (the reliability run's fuzzer: "one bad line" bodies were written). Now the
 * body is JSON Lines, the bad line is reported and nothing is imported; real text stays text.
 */
import { describe, expect, it } from "vitest";
import { detectFormat, parseImportBody } from "../../src/memory/import/formats/parse-import-body";

const good = (i: number) => JSON.stringify({ content: `walnut lantern ${i}`, external_id: `x-${i}` });

describe("import format detection with a broken first line", () => {
  for (const first of ["null", '"text"', "42", "\u0000", "{'content':'x'}", "oops"]) {
    it(`reports ${JSON.stringify(first)} as line 1 of JSON Lines and imports nothing`, () => {
      const body = [first, good(1), good(2), good(3)].join("\n");
      expect(detectFormat(body)).toBe("jsonl");
      const parsed = parseImportBody(body);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.errors[0].line).toBe(1);
    });
  }

  it("keeps plain text and Markdown as text, even with a JSON line among them", () => {
    expect(detectFormat("I like tea\nI live in Lyon")).toBe("text");
    expect(detectFormat(`# Notes\n- I like tea\n- ${good(1)}\n- I live in Lyon`)).toBe("text");
    expect(detectFormat(`I like tea\n${good(1)}\nI live in Lyon`)).toBe("text");
  });
});
