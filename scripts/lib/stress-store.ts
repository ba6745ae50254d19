/**
 * @module scripts/lib/stress-store
 * The reliability run reads the local D1 database files (every shard) directly (read-only, node:sqlite), beside
 * what the API shows: a digest of every stored byte for the fuzzing invariant ("the store is
 * unchanged"), and the checks that nothing half-written is visible after a hard kill (a row without
 * its FTS entry or its create event, an FTS entry without its row, an import half-applied).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** The D1 databases (the home database and every shard, docs/shards.md) under a wrangler `--persist-to` directory. */
export function d1Files(persistDir: string): string[] {
  const dir = join(persistDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite") : [];
  if (files.length === 0) throw new Error(`expected D1 database files in ${dir}, found none`);
  return files.sort().map((f) => join(dir, f));
}

function withDb<T>(file: string, read: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** Runs `read` on every database and sums its counts. */
function countAll(files: string[], read: (db: DatabaseSync) => number): number {
  return files.reduce((sum, file) => sum + withDb(file, read), 0);
}

/**
 * Tables whose every row is hashed, with the columns that legitimately change without a write:
 * a key's last use is stamped by authentication itself (at most once a minute).
 */
const HASHED: { table: string; skip: string[] }[] = [
  { table: "memories", skip: [] },
  { table: "memory_events", skip: [] },
  { table: "memories_fts", skip: [] },
  { table: "fts_owner_blocks", skip: [] },
  { table: "api_keys", skip: ["last_used_at"] },
];

/** SHA-256 over every row of the memory tables of every shard, in a fixed order; and the row counts. */
export function storeDigest(files: string[]): { digest: string; rows: number } {
  const hash = createHash("sha256");
  let rows = 0;
  for (const file of files) rows += hashRows(file, hash);
  return { digest: hash.digest("hex"), rows };
}

function hashRows(file: string, hash: ReturnType<typeof createHash>): number {
  return withDb(file, (db) => {
    let rows = 0;
    for (const { table, skip } of HASHED) {
      const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[])
        .map((c) => c.name)
        .filter((c) => !skip.includes(c));
      const list = columns.map((c) => `"${c}"`).join(", ");
      hash.update(`${table}(${list})\n`);
      for (const row of db.prepare(`SELECT ${list} FROM ${table} ORDER BY ${list}`).iterate()) {
        hash.update(`${JSON.stringify(row)}\n`);
        rows++;
      }
    }
    return rows;
  });
}

export interface HalfWritten {
  activeWithoutFts: number;
  ftsWithoutRow: number;
  /** A row without the event that created it (create, or quarantine for a quarantined save). */
  rowWithoutCreateEvent: number;
  /** Imports neither absent nor complete: `prefix: found/expected`. */
  partialImports: string[];
}

/** Counts what only a torn write could leave behind, over every shard; `imports` are in-flight imports (external_id prefix → lines). */
export function halfWritten(files: string[], imports: Map<string, number>): HalfWritten {
  const count =
    (sql: string, ...params: (string | number)[]) =>
    (db: DatabaseSync) =>
      Number((db.prepare(sql).get(...params) as { n: number }).n);
  const partialImports: string[] = [];
  for (const [prefix, expected] of imports) {
    const found = countAll(
      files,
      count("SELECT count(*) AS n FROM memories WHERE substr(external_id, 1, ?) = ?", prefix.length, prefix),
    );
    if (found !== 0 && found !== expected) partialImports.push(`${prefix}: ${found}/${expected}`);
  }
  return {
    activeWithoutFts: countAll(
      files,
      count(
        "SELECT count(*) AS n FROM memories m WHERE m.status = 'active' AND NOT EXISTS (SELECT 1 FROM memories_fts f WHERE f.memory_id = m.id)",
      ),
    ),
    ftsWithoutRow: countAll(
      files,
      count(
        "SELECT count(*) AS n FROM memories_fts f WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = f.memory_id)",
      ),
    ),
    rowWithoutCreateEvent: countAll(
      files,
      count(
        "SELECT count(*) AS n FROM memories m WHERE NOT EXISTS (SELECT 1 FROM memory_events e WHERE e.memory_id = m.id AND e.op IN ('create', 'quarantine'))",
      ),
    ),
    partialImports,
  };
}

export function halfWrittenCount(h: HalfWritten): number {
  return h.activeWithoutFts + h.ftsWithoutRow + h.rowWithoutCreateEvent + h.partialImports.length;
}
