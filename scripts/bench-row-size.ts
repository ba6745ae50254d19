/**
 * @module scripts/bench-row-size
 * `npm run bench:row-size [-- --memories 5000]` (BENCH_PORT / BENCH_INSPECTOR_PORT pin the ports):
 * what one memory costs on disk in D1, with its FTS rows, its history and every index — the figure the
 * shard capacity math in docs/shards.md rests on. Starts the offline server on a fresh state
 * directory, imports N generated memories for one user through POST /v1/import (the real write path:
 * row, FTS row, create event), stops the server, then reads SQLite's own page accounting (`dbstat`)
 * of the shard that holds them, object by object, minus the same objects in the empty shard.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { createKey } from "./lib/api-keys.ts";
import { chunkLines, postImport, type SourceLine } from "./lib/import-client.ts";
import { startLocalServer } from "./lib/local-server.ts";
import { applyMigrations, ScriptError, setLocalPersistDir } from "./lib/wrangler-d1.ts";

const say = (text: string) => process.stderr.write(`bench:row-size: ${text}\n`);
const USER = "bench-size";
const TOPICS = ["tea", "hiking", "the garden", "Rust", "jazz", "Kyoto", "the bike", "chess", "sourdough", "piano"];
const CATEGORIES = ["preference", "personal", "work", "project", "health"];

/**
 * A mix like the memories agents save: mostly one-sentence facts, some longer notes, a third in
 * Chinese (CJK is indexed as bigrams and unigrams, so it costs more FTS per character).
 */
function generated(n: number): SourceLine[] {
  return Array.from({ length: n }, (_, i) => {
    const topic = TOPICS[i % TOPICS.length];
    const base =
      i % 3 === 0
        ? `第${i}条：用户提到他最近常去${topic}，并说下个月还想和朋友一起再去一次，记得提醒他。`
        : `Memory ${i}: the user mentioned ${topic} and said it matters to them; note ${i * 7919}.`;
    const content = i % 10 === 9 ? `${base} ${base.repeat(3)}` : base;
    const text = JSON.stringify({
      content,
      category: CATEGORIES[i % CATEGORIES.length],
      tags: [topic.replace(/\s/g, "-").toLowerCase(), `t${i % 7}`],
      source: `bench:conversation-${Math.floor(i / 10)}`,
      external_id: `size-${i}`,
    });
    return { fileLine: i + 1, text, source: `bench:conversation-${Math.floor(i / 10)}` };
  });
}

/** Every local D1 SQLite file under the state directory. */
function sqliteFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.includes("d1") && e.name.endsWith(".sqlite")) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Bytes per SQLite object (table, index, FTS shadow table), from dbstat. */
function objectBytes(file: string): { memories: number; objects: Map<string, number>; fileBytes: number } {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all() as {
      name: string;
      bytes: number;
    }[];
    const memories = Number((db.prepare("SELECT count(*) AS n FROM memories").get() as { n: number }).n);
    return { memories, objects: new Map(rows.map((r) => [r.name, Number(r.bytes)])), fileBytes: statSync(file).size };
  } finally {
    db.close();
  }
}

/** Each object counts in the first group it matches (FTS shadow tables first: one is `memories_fts_idx`). */
const GROUPS: [string, RegExp][] = [
  ["FTS5 (index, content, docsize)", /^memories_fts/],
  ["memories row + its indexes", /^(memories|sqlite_autoindex_memories_\d+|memories_.*_idx)$/],
  ["history (memory_events + indexes)", /^memory_events/],
  ["entities (entities, keys, mentions, relations + indexes)", /^(entities|entity_|sqlite_autoindex_entit)/],
];

const groupOf = (name: string) => GROUPS.find(([, pattern]) => pattern.test(name))?.[0];

function report(n: number, full: ReturnType<typeof objectBytes>, empty: ReturnType<typeof objectBytes>): void {
  const grown = (name: string) => (full.objects.get(name) ?? 0) - (empty.objects.get(name) ?? 0);
  let total = 0;
  console.log(`D1 bytes per memory at ${n} memories (SQLite dbstat, growth over the empty schema):`);
  for (const [label] of GROUPS) {
    const bytes = [...full.objects.keys()].filter((k) => groupOf(k) === label).reduce((s, k) => s + grown(k), 0);
    total += bytes;
    console.log(`  ${label.padEnd(34)} ${(bytes / n).toFixed(0).padStart(6)} B`);
  }
  console.log(`  ${"total".padEnd(34)} ${(total / n).toFixed(0).padStart(6)} B`);
  console.log(`  file size / memories (incl. free pages) ${((full.fileBytes - empty.fileBytes) / n).toFixed(0)} B`);
  const perDb = Math.floor((10 * 1e9) / (total / n));
  console.log(`  → one 10 GB D1 database holds ~${(perDb / 1e6).toFixed(1)} million such memories`);
}

async function importAll(base: string, key: string, lines: SourceLine[]): Promise<void> {
  for (const chunk of chunkLines(lines)) {
    const r = await postImport(base, key, chunk, { user: USER });
    if (!r.ok) throw new ScriptError(`import failed (${r.status}): ${r.message}`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { memories: { type: "string" } } });
  const n = Number(values.memories ?? 5000);
  if (!Number.isInteger(n) || n < 100 || n > 100_000) throw new ScriptError("--memories takes 100 to 100000");
  const dir = mkdtempSync(join(tmpdir(), "hippocampus-bench-size-"));
  setLocalPersistDir(dir);
  try {
    applyMigrations("local");
    const { key } = await createKey(
      { scope: "app", name: "bench-size", account: "bench", label: "bench:row-size" },
      "local",
    );
    const server = await startLocalServer(dir, { timeoutMs: 180_000 });
    say(`server up at ${server.base}; importing ${n} memories`);
    try {
      await importAll(server.base, key, generated(n));
    } finally {
      await server.stop();
    }
    // Shards only: the directory of D1 state also holds miniflare's metadata database.
    const measured = sqliteFiles(dir)
      .filter((f) => !f.endsWith("metadata.sqlite"))
      .map(objectBytes);
    const full = measured.find((m) => m.memories === n);
    const empty = measured.find((m) => m.memories === 0);
    if (!full || !empty) throw new ScriptError(`expected one shard with ${n} memories and one empty shard`);
    report(n, full, empty);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench:row-size: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
