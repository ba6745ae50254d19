/**
 * The commands the README and docs/ show exist: every `npm run <script>` is a script of package.json,
 * and every `--flag` written after its `--` is an option its script reads. So the docs cannot drift
 * from the code. Also: no issue number in docs or code comments (they mean nothing to a reader of
 * the repository; name the capability instead).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const DOCS = [
  "README.md",
  "AGENTS.md",
  ...readdirSync(join(ROOT, "docs")).flatMap((f) => (f.endsWith(".md") ? [`docs/${f}`] : [])),
];
const scripts: Record<string, string> = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;

/** Scripts whose arguments go to another tool as they are (`npm run dev -- --port 8799` is wrangler's). */
const PASS_THROUGH = new Set(["dev", "test", "types", "deploy", "lint", "format", "db:generate", "db:migrate:local"]);

interface Shown {
  doc: string;
  line: number;
  script: string;
  flags: string[];
}

/** Every `npm run <script> [-- args]` on a line of a doc, with the flags written after `--`. */
function shownCommands(doc: string, text: string): Shown[] {
  const found: Shown[] = [];
  text.split("\n").forEach((lineText, i) => {
    for (const m of lineText.matchAll(/npm run ([a-z][a-z0-9:-]*)((?: [^`|#]*)?)/g)) {
      const args = m[2] ?? "";
      const afterDashes = args.startsWith(" -- ") ? args.slice(4) : "";
      const flags = [...afterDashes.matchAll(/(?:^|[\s[])--([a-z][a-z0-9-]*)/g)].map((f) => f[1] as string);
      found.push({ doc, line: i + 1, script: m[1] as string, flags });
    }
  });
  return found;
}

/** The entry file of a `node … scripts/x.ts` script and every scripts/ module it imports, as text. */
function scriptSource(command: string): string {
  const entry = command.split(/\s+/).find((w) => w.startsWith("scripts/") && w.endsWith(".ts"));
  if (!entry) return "";
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, "utf8").matchAll(/from "(\.[^"]+\.ts)"/g)) {
      visit(resolve(dirname(file), m[1] as string));
    }
  };
  visit(join(ROOT, entry));
  return [...seen].map((f) => readFileSync(f, "utf8")).join("\n");
}

function readsFlag(source: string, flag: string): boolean {
  return source.includes(`--${flag}`) || source.includes(`"${flag}"`) || new RegExp(`\\b${flag}:`).test(source);
}

const shown = DOCS.flatMap((doc) => shownCommands(doc, readFileSync(join(ROOT, doc), "utf8")));

describe("the commands the docs show", () => {
  it("finds commands to check (the parser works)", () => {
    expect(shown.filter((c) => c.doc === "README.md").length).toBeGreaterThan(10);
    expect(shownCommands("x", "run `npm run export -- --key hc_x --out m.jsonl`")).toEqual([
      { doc: "x", line: 1, script: "export", flags: ["key", "out"] },
    ]);
  });

  it("names only scripts package.json has", () => {
    const missing = shown.filter((c) => !(c.script in scripts)).map((c) => `${c.doc}:${c.line} npm run ${c.script}`);
    expect(missing).toEqual([]);
  });

  it("shows only flags the script reads", () => {
    const unknown: string[] = [];
    for (const c of shown) {
      const command = scripts[c.script];
      if (!command || PASS_THROUGH.has(c.script)) continue;
      const source = scriptSource(command);
      for (const flag of c.flags) {
        if (!readsFlag(source, flag)) unknown.push(`${c.doc}:${c.line} npm run ${c.script} -- --${flag}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it("catches a flag no script reads", () => {
    const source = scriptSource(scripts.export as string);
    expect(readsFlag(source, "key")).toBe(true);
    expect(readsFlag(source, "no-such-flag-anywhere")).toBe(false);
  });
});

describe("no issue numbers in docs or code comments", () => {
  const ISSUE = /\bissues? ?#?\d+/i;
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) return walk(path);
      return /\.(ts|tsx|md|cjs|toml)$/.test(e.name) ? [path] : [];
    });
  const files = [
    ...DOCS,
    ...["src", "scripts", "test", "bench"].flatMap((d) => (existsSync(join(ROOT, d)) ? walk(d) : [])),
  ];

  it("finds none", () => {
    const self = relative(ROOT, import.meta.filename);
    const hits = files
      .filter((f) => f !== self)
      .flatMap((f) =>
        readFileSync(join(ROOT, f), "utf8")
          .split("\n")
          .flatMap((text, i) => (ISSUE.test(text) ? [`${f}:${i + 1}: ${text.trim().slice(0, 100)}`] : [])),
      );
    expect(hits).toEqual([]);
  });
});
