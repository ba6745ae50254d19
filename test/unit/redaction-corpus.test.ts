import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../src/memory/write/redact-secrets";
import benign from "../fixtures/redaction/benign.txt?raw";
import secrets from "../fixtures/redaction/secrets.txt?raw";

/** A corpus's lines, without its comments ("#") and blank lines. */
const lines = (corpus: string): string[] =>
  corpus.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#"));

const MARKED = /⟦([^⟧]*)⟧/g;

describe("redaction corpora", () => {
  it("the benign corpus has at least 500 lines and comes back unchanged", () => {
    const all = lines(benign);
    expect(all.length).toBeGreaterThanOrEqual(500);
    const changed = all.map((line) => [line, redactSecrets(line).text]).filter(([line, out]) => out !== line);
    expect(changed).toEqual([]);
  });

  it("every marked secret is redacted, and only the secret", () => {
    const all = lines(secrets);
    expect(all.length).toBeGreaterThanOrEqual(60);
    const wrong = all.flatMap((line) => {
      const marked = [...line.matchAll(MARKED)].map((m) => m[1]);
      const out = redactSecrets(line.replace(/[⟦⟧]/g, "")).text;
      // The line's shape with each secret as § must be the output's shape with each redaction as §.
      const expected = line.replace(MARKED, "§");
      const got = out.replace(/\[REDACTED:[a-z-]+\]/g, "§");
      const leaked = marked.filter((s) => out.includes(s));
      return marked.length > 0 && got === expected && leaked.length === 0 ? [] : [{ line, out }];
    });
    expect(wrong).toEqual([]);
  });
});
