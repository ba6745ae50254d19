/**
 * The README's export and import commands, run as printed (the key filled in, the server named by
 * HIPPOCAMPUS_URL) from a directory inside the project against a fresh offline server: the export
 * file is a clean Hippocampus export (no npm banner, ends with its end line) written where the command
 * ran, and importing it into another user's store brings every memory back.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../scripts/lib/api-keys.ts";
import { type DashboardServer, startDashboardServer } from "../../scripts/lib/dashboard-server.ts";
import { setLocalPersistDir } from "../../scripts/lib/wrangler-d1.ts";

const ROOT = join(import.meta.dirname, "../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** The README line that starts with `prefix`, without its trailing comment. */
function readmeCommand(prefix: string): string {
  const line = README.split("\n").find((l) => l.startsWith(prefix));
  expect(line, `README has a line starting ${prefix}`).toBeDefined();
  return line!.replace(/\s+#.*$/, "").trim();
}

let server: DashboardServer;
let otherKey: string;
let cwd: string;

beforeAll(async () => {
  server = await startDashboardServer("readme-export");
  await server.save("I am allergic to peanuts", { category: "health" });
  await server.save("I cycle to work along the river", { category: "routine" });
  setLocalPersistDir(server.dir);
  otherKey = (await createKey({ scope: "user", name: "readme-import", account: "default", label: "t" }, "local")).key;
  setLocalPersistDir(null);
  cwd = mkdtempSync(join(ROOT, ".tmp-readme-"));
}, 300_000);

afterAll(async () => {
  await server?.stop();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

function run(command: string, key: string): string {
  return execFileSync("sh", ["-c", command.replaceAll("hc_…", key)], {
    cwd,
    env: { ...process.env, HIPPOCAMPUS_URL: server.base },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function exportLines(file: string): { type: string }[] {
  return readFileSync(join(cwd, file), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string });
}

describe("README: export and import round-trip as printed", () => {
  it.each([
    ["npm run export -- --key hc_… --out memories.jsonl"],
    ["npm run --silent export -- --key hc_… > memories.jsonl"],
  ])(
    "%s writes a clean export where it ran",
    (prefix) => {
      rmSync(join(cwd, "memories.jsonl"), { force: true });
      run(readmeCommand(prefix), server.key);
      const lines = exportLines("memories.jsonl");
      expect(lines[0]).toMatchObject({ format: "hippocampus-export" });
      expect(lines.filter((l) => l.type === "memory")).toHaveLength(2);
      expect(lines.at(-1)?.type).toBe("end");
    },
    120_000,
  );

  it("imports the export into another user's store", async () => {
    run(readmeCommand("npm run export -- --key hc_… --out memories.jsonl"), server.key);
    run(readmeCommand("npm run import -- memories.jsonl --key hc_…"), otherKey);
    run("npm run export -- --key hc_… --out again.jsonl", otherKey);
    const again = exportLines("again.jsonl").filter((l) => l.type === "memory") as unknown as { content: string }[];
    expect(again.map((m) => m.content).sort()).toEqual(["I am allergic to peanuts", "I cycle to work along the river"]);
  }, 180_000);
});
