/**
 * scripts/lib/resolve-src.ts lets plain Node load src/ modules, whose relative imports omit `.ts`:
 * a script importing a src/ module with such imports runs with the hook and fails without it. Runs
 * in the Node project (vitest.config.ts): it starts Node itself, as `npm run bench:recall` does.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const HOOK = "./scripts/lib/resolve-src.ts";
// progressive-injection.ts imports ../text/excerpt, ../text/tokenize … without extensions.
const SCRIPT = `
import { shownText } from "./src/memory/recall/progressive-injection.ts";
const show = shownText("support group", 8);
console.log(show({ memory: { id: "a", content: "Caroline: Hello there, I went to the big support group yesterday, and it was great." } }));
`;

function run(args: string[]) {
  return spawnSync(process.execPath, [...args, "--input-type=module", "--eval", SCRIPT], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("scripts load src/ under plain Node through the resolve hook", () => {
  it("resolves src/'s extension-less imports with the hook", () => {
    const r = run(["--import", HOOK]);
    expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe("Caroline: …support group…");
  });

  it("is what makes it work: without the hook Node refuses the same import", () => {
    const r = run([]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/ERR_MODULE_NOT_FOUND/);
  });
});
