import { describe, expect, it } from "vitest";
import { prng } from "../../scripts/lib/bench-synthetic";
import { PasswordValueScanner, passwordPhraseEnd, passwordWordEnd } from "../../src/memory/write/password-value";

// The lazy patterns the scans replace (redact-secrets.ts before the last ReDoS pass), kept here
// as the reference the scans must agree with; the test's inputs are short, where they are fast.
const OLD_WORD = String.raw`("[^"\n]{1,200}"|'[^'\n]{1,200}'|“[^”\n]{1,200}”|「[^」\n]{1,200}」|[^\s"'“「，。；、,;]{1,200}?)(?=[.!?。！？,，;；、)）]{0,8}(?:\s|$)|[，。；、,;])`;
const OLD_PHRASE = String.raw`("[^"\n]{1,200}"|'[^'\n]{1,200}'|“[^”\n]{1,200}”|「[^」\n]{1,200}」|[^\s"'“「，。；、,;][^\n,;，；。、]{0,200}?)(?=[.!?。！？]{0,8}[^\S\n]{0,8}(?:\n|$)|[.!?]\s|[,;，；。、！？])`;

function oldEnd(source: string, text: string, from: number): number {
  const re = new RegExp(source, "y");
  re.lastIndex = from;
  const m = re.exec(text);
  return m ? from + m[0].length : -1;
}

/** A seeded generator, so every run tries the same strings. */
const random = prng;

const ALPHABET = [..."ab1 .!?。！？,，;；、)）\"'“”「」\n\t\u3000x"];

function texts(count: number, seed: number, maxLength: number): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * maxLength);
    return Array.from({ length }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join("");
  });
}

describe("password values: the scans decide what the lazy patterns decided", () => {
  it.each([
    ["hunter2", 7],
    ["Tr0ub4dor&3.", 11],
    ["s3cret!x", 8],
    ["abc.def.", 7],
    ["abc123，别告诉别人", 6],
    ['"correct horse" ok', 15],
    ["abc......... x", 4],
    ["...", 1],
    ['"unclosed', -1],
    ['abc"def', -1],
    ["", -1],
  ])("after 'is': %j ends at %i", (text, end) => {
    expect(passwordWordEnd(text, 0)).toBe(end);
    expect(oldEnd(OLD_WORD, text, 0)).toBe(end);
  });

  it.each([
    ["correct horse battery staple", 28],
    ["hunter2. next sentence", 7],
    ["a b c, then more", 5],
    ["x1!  \nnext line", 2],
    ["3.5 stays whole", 15],
    [`no end${"x".repeat(300)}`, -1],
    [" leading space", -1],
  ])("after ':': %j ends at %i", (text, end) => {
    expect(passwordPhraseEnd(text, 0)).toBe(end);
    expect(oldEnd(OLD_PHRASE, text, 0)).toBe(end);
  });

  it("agree on 20,000 generated strings at every offset", () => {
    for (const text of texts(20_000, 11, 40)) {
      for (let from = 0; from <= text.length; from += 3) {
        expect([text, from, passwordWordEnd(text, from)]).toEqual([text, from, oldEnd(OLD_WORD, text, from)]);
        expect([text, from, passwordPhraseEnd(text, from)]).toEqual([text, from, oldEnd(OLD_PHRASE, text, from)]);
      }
    }
  });

  it("agree at the 200-character limit and the 8-mark tail", () => {
    for (const text of [
      `${"a".repeat(199)}. `,
      `${"a".repeat(200)}. `,
      `${"a".repeat(201)}. `,
      `x${"b".repeat(199)}.`,
      `x${"b".repeat(200)}.`,
      `x${"b".repeat(201)}.`,
      `"${"c".repeat(200)}"`,
      `"${"c".repeat(201)}"`,
      `x${".".repeat(8)} `,
      `x${".".repeat(9)} `,
      `x${".".repeat(8)}${" ".repeat(8)}\n`,
      `x${".".repeat(8)}${" ".repeat(9)}\n`,
    ]) {
      expect(passwordWordEnd(text, 0)).toBe(oldEnd(OLD_WORD, text, 0));
      expect(passwordPhraseEnd(text, 0)).toBe(oldEnd(OLD_PHRASE, text, 0));
    }
  });

  it("one scanner shared by every offset of a text (what redaction does) answers as a fresh scan at each", () => {
    // Long texts with dense labels' worth of values, offsets rising (as labels are found) then falling.
    for (const text of texts(120, 23, 500)) {
      const scan = new PasswordValueScanner(text);
      const offsets = [...Array(text.length + 1).keys()];
      for (const from of [...offsets, ...offsets.reverse()]) {
        expect([text, from, scan.wordEnd(from)]).toEqual([text, from, passwordWordEnd(text, from)]);
        expect([text, from, scan.phraseEnd(from)]).toEqual([text, from, passwordPhraseEnd(text, from)]);
      }
    }
  });

  it("a shared scanner agrees with the lazy patterns on long values past the 200-character limit", () => {
    const next = random(5);
    for (let k = 0; k < 60; k++) {
      const text = Array.from({ length: 900 }, () =>
        next() < 0.995 ? "a" : ALPHABET[Math.floor(next() * ALPHABET.length)],
      ).join("");
      const scan = new PasswordValueScanner(text);
      for (let from = 0; from <= text.length; from += 1 + Math.floor(next() * 4)) {
        expect([from, scan.phraseEnd(from)]).toEqual([from, oldEnd(OLD_PHRASE, text, from)]);
        expect([from, scan.wordEnd(from)]).toEqual([from, oldEnd(OLD_WORD, text, from)]);
      }
    }
  });
});
