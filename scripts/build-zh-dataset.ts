/**
 * @module scripts/build-zh-dataset
 * Writes the Chinese conversational benchmark from the hand-written users:
 *   node scripts/build-zh-dataset.ts [--seed 12] [--check]
 * → bench/zh-conv-dev.json and bench/zh-conv-test.json (generic format). --check fails when the
 * committed files differ from what the sources and seed produce.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildDataset } from "./lib/zh-dataset/build-dataset.ts";
import { parseUsers } from "./lib/zh-dataset/parse-users.ts";

const { values } = parseArgs({ options: { seed: { type: "string" }, check: { type: "boolean" } } });
const seed = Number(values.seed ?? 12);
const dir = join(import.meta.dirname, "lib", "zh-dataset");
const files = readdirSync(dir)
  .filter((f) => /^users-.*\.txt$/.test(f))
  .sort();
const users = files.flatMap((f) => parseUsers(f, readFileSync(join(dir, f), "utf8")));
const { dev, test } = buildDataset(users, seed);
let stale = false;
for (const [name, samples] of [
  ["zh-conv-dev.json", dev],
  ["zh-conv-test.json", test],
] as const) {
  const path = join(import.meta.dirname, "..", "bench", name);
  const text = `${JSON.stringify(samples, null, 1)}\n`;
  const questions = samples.reduce((n, s) => n + s.qa.length, 0);
  const memories = samples.reduce((n, s) => n + s.memories.length, 0);
  const summary = `${name}: ${samples.length} users (${samples.map((s) => s.sample_id).join(" ")}), ${memories} memories, ${questions} questions`;
  if (values.check) {
    let current = "";
    try {
      current = readFileSync(path, "utf8");
    } catch {}
    if (current !== text) {
      console.error(`stale: ${summary}`);
      stale = true;
    }
  } else {
    writeFileSync(path, text);
    console.log(`wrote ${summary}`);
  }
}
if (stale) process.exit(1);
