/**
 * The static guards of `npm run check` fail when they should: each is run, with the repository's own
 * configuration, on a small tree written for the purpose, and must report exactly the violations
 * planted there (and nothing for the allowed imports beside them).
 *   - dependency-cruiser (.dependency-cruiser.cjs): a cycle made only of `import type`, memory/
 *     importing an adapter, http/ importing an mcp/ internal, access/ importing a transport, http/ or
 *     mcp/ importing storage/, accounts/ importing anything outside it;
 *   - Biome plugins (.biome/*.grit): `as never` / `as unknown as` in src/mcp, and an import() type
 *     (which dependency-cruiser's swc parser cannot see, so a cycle through one would pass).
 * Runs in the Node project (vitest.config.ts): it starts the real command-line tools.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const BIN = join(ROOT, "node_modules/.bin");
const dirs: string[] = [];

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "hippocampus-guards-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

function depcruise(dir: string): Violation[] {
  const run = spawnSync(
    process.execPath,
    [join(BIN, "depcruise"), "src", "--config", join(ROOT, ".dependency-cruiser.cjs"), "--output-type", "json"],
    { cwd: dir, encoding: "utf8" },
  );
  expect(run.stdout, run.stderr).not.toBe("");
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe("dependency-cruiser rules", () => {
  const dir = tree({
    "src/typecycle/a.ts": 'import type { B } from "./b";\nexport interface A {\n  b: B;\n}\n',
    "src/typecycle/b.ts": 'import type { A } from "./a";\nexport interface B {\n  a?: A;\n}\n',
    "src/memory/uses-adapter.ts": 'import { row } from "../storage/d1-row";\nexport const x = row;\n',
    "src/memory/pure.ts": 'import { y } from "./other";\nexport const x = y;\n',
    "src/memory/other.ts": "export const y = 1;\n",
    "src/storage/d1-row.ts": "export const row = 1;\n",
    "src/http/uses-internal.ts": 'import { scope } from "../mcp/tool-context";\nexport const x = scope;\n',
    "src/http/uses-entry.ts": 'import { handler } from "../mcp/transports";\nexport const x = handler;\n',
    "src/mcp/tool-context.ts": "export const scope = 1;\n",
    "src/mcp/transports.ts": "export const handler = 1;\n",
    "src/access/uses-http.ts": 'import { h } from "../http/h";\nexport const x = h;\n',
    "src/http/h.ts": "export const h = 1;\n",
    "src/composition.ts": "export const built = 1;\n",
    "src/http/uses-composition.ts": 'import { built } from "../composition";\nexport const x = built;\n',
    "src/durable/uses-composition.ts": 'import { built } from "../composition";\nexport const x = built;\n',
    "src/index.ts": 'import { built } from "./composition";\nexport const x = built;\n',
    "src/http/uses-storage.ts": 'import { row } from "../storage/d1-row";\nexport const x = row;\n',
    "src/mcp/uses-storage.ts": 'import type { Row } from "../storage/accounts/d1-key";\nexport type X = Row;\n',
    "src/storage/accounts/d1-key.ts": 'import type { Port } from "../../accounts/port";\nexport type Row = Port;\n',
    "src/http/uses-port.ts": 'import type { Port } from "../accounts/port";\nexport type X = Port;\n',
    "src/accounts/port.ts": 'import { sibling } from "./format";\nexport type Port = typeof sibling;\n',
    "src/accounts/format.ts": "export const sibling = 1;\n",
    "src/accounts/uses-composition.ts": 'import { built } from "../composition";\nexport const x = built;\n',
  });
  const found = depcruise(dir).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);

  it("reports a cycle made only of type imports", () => {
    expect(found.filter((v) => v.startsWith("no-cycle:"))).toEqual([
      "no-cycle: src/typecycle/a.ts → src/typecycle/b.ts",
    ]);
  });

  it("reports memory/ importing an adapter, http/ importing an mcp/ internal or the composition root, access/ importing http/, a transport importing storage/, accounts/ importing outside it", () => {
    expect(found.filter((v) => !v.startsWith("no-cycle:")).sort()).toEqual([
      "access-is-transport-neutral: src/access/uses-http.ts → src/http/h.ts",
      "accounts-imports-no-adapter: src/accounts/uses-composition.ts → src/composition.ts",
      "composition-only-at-entries: src/accounts/uses-composition.ts → src/composition.ts",
      "composition-only-at-entries: src/http/uses-composition.ts → src/composition.ts",
      "http-uses-mcp-entry-only: src/http/uses-internal.ts → src/mcp/tool-context.ts",
      "memory-imports-no-adapter: src/memory/uses-adapter.ts → src/storage/d1-row.ts",
      "transports-never-import-storage: src/http/uses-storage.ts → src/storage/d1-row.ts",
      "transports-never-import-storage: src/mcp/uses-storage.ts → src/storage/accounts/d1-key.ts",
    ]);
  });
});

describe("Biome plugins", () => {
  // The repository's biome.json and plugin files, over a tree of files that break them.
  const dir = tree({
    "biome.json": JSON.stringify({ extends: [join(ROOT, "biome.json")], vcs: { enabled: false } }),
    "src/mcp/never.ts": "export const a = 1 as never;\n",
    "src/mcp/unknown.ts": 'export const b = "x" as unknown as number;\n',
    "src/mcp/typed.ts": "export const c: number = 1;\n",
    "src/http/never.ts": "export const d = 1 as never;\n",
    "src/memory/c.ts": 'export type C = { d: import("./d").D };\n',
    "src/memory/d.ts": 'export interface D {\n  c?: import("./c").C;\n}\n',
  });
  cpSync(join(ROOT, ".biome"), join(dir, ".biome"), { recursive: true });
  const run = spawnSync(process.execPath, [join(BIN, "biome"), "lint", "--max-diagnostics=50", "src"], {
    cwd: dir,
    encoding: "utf8",
  });
  const out = `${run.stdout}\n${run.stderr}`;
  const flagged = (message: string) =>
    [...out.matchAll(/(src\/\S+\.ts):\d+:\d+ plugin[^\n]*\n\s*\n?\s*× ([^\n]+)/g)]
      .filter((m) => m[2].startsWith(message))
      .map((m) => m[1])
      .sort();

  it("refuse `as never` and `as unknown as` in src/mcp (and only there)", () => {
    expect(run.status, out).not.toBe(0);
    expect(flagged("No `as never`"), out).toEqual(["src/mcp/never.ts", "src/mcp/unknown.ts"]);
  });

  it("refuse import() types, which dependency-cruiser cannot see", () => {
    expect(flagged("Write an `import type`"), out).toEqual(["src/memory/c.ts", "src/memory/d.ts"]);
  });
});
