/**
 * docs/deploying.md's cost table and the README's cost matrix are `npm run cost`'s own output (the
 * tables compared cell by cell, whatever padding the formatter adds): a change of a price or a
 * per-operation figure that is not carried into the docs fails here.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const NODE = join(ROOT, "node_modules/.bin/node");

const rows = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.trim().startsWith("|") && !/^\|[\s|:-]+\|$/.test(l.trim()))
    .map((l) =>
      l
        .trim()
        .slice(1, -1)
        .split("|")
        .map((c) => c.trim())
        .join(" | "),
    );

function cost(args: string[]): string[] {
  const r = spawnSync(NODE, ["scripts/cost.ts", ...args], { cwd: ROOT, encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return rows(r.stdout);
}

describe("the cost tables in the docs are npm run cost's output", () => {
  it("docs/deploying.md: npm run cost", () => {
    const doc = rows(readFileSync(join(ROOT, "docs/deploying.md"), "utf8"));
    const out = cost([]);
    expect(out.length).toBeGreaterThan(10);
    for (const row of out) expect(doc).toContain(row);
  });
  it("README.md: npm run cost -- --matrix", () => {
    const readme = rows(readFileSync(join(ROOT, "README.md"), "utf8"));
    const out = cost(["--matrix"]);
    expect(out).toHaveLength(4);
    for (const row of out) expect(readme).toContain(row);
  });
});
