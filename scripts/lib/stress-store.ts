/**
 * @module scripts/lib/stress-store
 * The reliability run reads the local D1 database file directly (read-only, node:sqlite), beside
 * what the API shows: a digest of every stored byte for the fuzzing invariant ("the store is
 * unchanged"), and the checks that nothing half-written is visible after a hard kill (a row without
 * its FTS entry or its create event, an FTS entry without its row, an import half-applied).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** The D1 database of binding DB under a wrangler `--persist-to` directory. */
export function d1File(persistDir: string): string {
  const dir = join(persistDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite") : [];
  if (files.length !== 1) throw new Error(`expected one D1 database file in ${dir}, found ${files.length}`);
  return join(dir, files[0]);
}

function withDb<T>(file: string, read: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/**
 * Tables whose every row is hashed, with the columns that legitimately change without a write:
 * a key's last use is stamped by authentication itself (at most once a minute).
 */
const HASHED: { table: string; skip: string[] }[] = [
  { table: "memories", skip: [] },
  { table: "memory_events", skip: [] },
  { table: "memories_fts", skip: [] },
  { table: "api_keys", skip: ["last_used_at"] },
];

/** SHA-256 over every row of the memory tables, in a fixed order; and the row counts. */
export function storeDigest(file: string): { digest: string; rows: number } {
  return withDb(file, (db) => {
    const hash = createHash("sha256");
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
    return { digest: hash.digest("hex"), rows };
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

/** Counts what only a torn write could leave behind; `imports` are in-flight imports (external_id prefix → lines). */
export function halfWritten(file: string, imports: Map<string, number>): HalfWritten {
  return withDb(file, (db) => {
    const count = (sql: string, ...params: (string | number)[]) =>
      Number((db.prepare(sql).get(...params) as { n: number }).n);
    const partialImports: string[] = [];
    for (const [prefix, expected] of imports) {
      const found = count(
        "SELECT count(*) AS n FROM memories WHERE substr(external_id, 1, ?) = ?",
        prefix.length,
        prefix,
      );
      if (found !== 0 && found !== expected) partialImports.push(`${prefix}: ${found}/${expected}`);
    }
    return {
      activeWithoutFts: count(
        "SELECT count(*) AS n FROM memories m WHERE m.status = 'active' AND NOT EXISTS (SELECT 1 FROM memories_fts f WHERE f.memory_id = m.id)",
      ),
      ftsWithoutRow: count(
        "SELECT count(*) AS n FROM memories_fts f WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = f.memory_id)",
      ),
      rowWithoutCreateEvent: count(
        "SELECT count(*) AS n FROM memories m WHERE NOT EXISTS (SELECT 1 FROM memory_events e WHERE e.memory_id = m.id AND e.op IN ('create', 'quarantine'))",
      ),
      partialImports,
    };
  });
}

export function halfWrittenCount(h: HalfWritten): number {
  return h.activeWithoutFts + h.ftsWithoutRow + h.rowWithoutCreateEvent + h.partialImports.length;
}
