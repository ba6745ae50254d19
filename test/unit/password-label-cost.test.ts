/**
 * Redaction's password rules cost about what ordinary text costs however densely labels are packed
 * (scripts/lib/password-label-shapes.ts; `npm run bench:redos` prints the ratios): the value scans read
 * each character a bounded number of times in all; one text asks the lookalike checks about a
 * bounded number of values, redacting the rest without asking, and reads a bounded number of labels,
 * redacting the rest of the text past them (fail closed).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { PasswordValueScanner } from "../../src/memory/write/password-value";
import { redactSecrets } from "../../src/memory/write/redact-secrets";

const fill = (unit: string, chars: number) => unit.repeat(Math.floor(chars / unit.length));

/** Character reads (charCodeAt) the scanner makes answering every value of `text` in order. */
function readsPerChar(text: string, labels: number[]): number {
  const scan = new PasswordValueScanner(text);
  const reads = vi.spyOn(String.prototype, "charCodeAt");
  for (const from of labels) {
    scan.phraseEnd(from);
    scan.wordEnd(from);
  }
  const n = reads.mock.calls.length;
  reads.mockRestore();
  return n / text.length;
}

/** Where each value starts: after every occurrence of `label`. */
const valuesAfter = (text: string, label: string): number[] => {
  const out: number[] = [];
  for (let i = text.indexOf(label); i >= 0; i = text.indexOf(label, i + 1)) out.push(i + label.length);
  return out;
};

describe("value scans over densely labelled text", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ["password: x + 196 × '!'", `password: x${"!".repeat(196)}`, "password: "],
    ["密码：a + 196 × '!'", `密码：a${"!".repeat(196)}`, "密码："],
    ["密码是a + 196 × ')'", `密码是a${")".repeat(196)}`, "密码是"],
    ["密码是a + 196 × '.'", `密码是a${".".repeat(196)}`, "密码是"],
    ["密码：密码是", "密码：密码是", "密码"],
    ["密码 ： (spaces)", "密码 ： ", "："],
  ])("read each character a bounded number of times in all: %s", (_name, unit, label) => {
    const text = fill(unit, 20_000);
    expect(readsPerChar(text, valuesAfter(text, label))).toBeLessThan(3);
  });
});

describe("the lookalike checks one text asks", () => {
  it("are bounded: past 24 (and one per 512 characters) further values are redacted without asking", () => {
    // 错的 ("wrong") after 密码是 is prose about a password, left alone while the checks are asked.
    const few = "密码是错的，".repeat(24);
    expect(redactSecrets(few).redactions).toEqual([]);
    const many = "密码是错的，".repeat(40);
    const budget = 24 + (many.length >> 9);
    const r = redactSecrets(many);
    expect(r.redactions).toEqual([{ kind: "password", count: 40 - budget }]);
    // The first `budget` values were asked about and kept; the rest are redacted.
    expect(r.text.startsWith("密码是错的，".repeat(budget))).toBe(true);
  });

  it("a text past its label budget is redacted from that label's value on (fail closed)", () => {
    const text = "密码：".repeat(2000);
    const budget = 64 + (text.length >> 6);
    const r = redactSecrets(text);
    expect(r.text).toBe(`${"密码：".repeat(budget + 1)}[REDACTED:password]`);
    expect(r.redactions).toEqual([{ kind: "password", count: 1 }]);
    // Under the budget, labels without a value (none ends within 200 characters) are left as they are.
    const under = `${"密码：".repeat(60)}${"x".repeat(300)}`;
    expect(redactSecrets(under).text).toBe(under);
  });

  it("never count a redaction twice: a value another rule already redacted is left as it is", () => {
    const text = "密码：sk-abcdefghijklmnop0123456789，".repeat(60);
    const kinds = redactSecrets(text).redactions.map((r) => r.kind);
    expect(kinds).toEqual(["openai-key"]);
  });
});
