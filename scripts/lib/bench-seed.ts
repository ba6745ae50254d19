/**
 * @module scripts/lib/bench-seed
 * One owner's memories, their create events and (optionally) their FTS rows, written straight into
 * a local D1 before the server starts, with the shard directory's rows placing the owner on that
 * database: what an import writes, generated inside SQLite by a recursive CTE so that 200,000
 * memories are a few short statements instead of a file of literals. Values are generated, never
 * user text. Used by the shard-move and CPU benchmarks.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { failureText, ScriptError, targetArgs, wrangler } from "./wrangler-d1.ts";

const TOPICS = ["tea", "hiking", "piano", "Rust", "Berlin", "sourdough", "chess", "cycling", "Kyoto", "jazz"];

/** One SQL literal. */
export const lit = (v: string | number) => (typeof v === "number" ? String(v) : `'${v.replace(/'/g, "''")}'`);

export interface SeedOwner {
  account: string;
  namespace: string;
  user: string;
  /** Every id starts with this (then the index, zero-padded to 26 characters in all). */
  idPrefix: string;
  /** The owner's FTS block (rowid = block × 2^32 + index + 1); null: no FTS rows. */
  ftsBlock: number | null;
}

/** The owner's address as the FTS rows and the directory name it (memory/owner-address.ts). */
export const ownerAddressOf = (o: SeedOwner) => JSON.stringify([o.account, o.namespace, o.user]);

/** The statements seeding memories [from, to) of `o`. */
export function seedChunk(o: SeedOwner, from: number, to: number): string[] {
  const at = "(1704067200000 + (i % 700) * 86400000 + i)";
  const topic = `json_extract(${lit(JSON.stringify(TOPICS))}, '$[' || (i % ${TOPICS.length}) || ']')`;
  const owner = `account_id = ${lit(o.account)} AND namespace = ${lit(o.namespace)} AND user_id = ${lit(o.user)}`;
  const width = 26 - o.idPrefix.length;
  const id = (i: string) => `${lit(o.idPrefix)} || printf('%0${width}d', ${i})`;
  const ids = `id >= ${id(String(from))} AND id < ${id(String(to))}`;
  const address = ownerAddressOf(o);
  const out = [
    `WITH RECURSIVE r(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM r WHERE i + 1 < ${to})
INSERT INTO memories (id, account_id, namespace, user_id, content, category, tags, content_hash, created_at, updated_at)
SELECT ${id("i")}, ${lit(o.account)}, ${lit(o.namespace)}, ${lit(o.user)},
  'Memory ' || i || ': the user mentioned ' || ${topic} || ' and said it matters to them (note ' || (i * 7919) || ').',
  'general', '[]', 'hash-' || i, ${at}, ${at} FROM r;`,
    `INSERT INTO memory_events (memory_id, account_id, namespace, user_id, op, after, actor, at)
SELECT id, account_id, namespace, user_id, 'create', json_object('id', id, 'content', content, 'status', 'active', 'createdAt', created_at), 'key:bench', created_at
FROM memories WHERE ${owner} AND ${ids} ORDER BY id;`,
  ];
  if (o.ftsBlock !== null)
    out.push(`INSERT INTO memories_fts (rowid, tokens, context, owner_key, memory_id, owner)
SELECT ${o.ftsBlock * 2 ** 32} + CAST(substr(id, ${o.idPrefix.length + 1}) AS INTEGER) + 1, lower(content), '', lower(hex(${lit(address)})) || ' m' || id, id, ${lit(address)}
FROM memories WHERE ${owner} AND ${ids} ORDER BY id;`);
  return out;
}

/** The directory's rows placing `o` (and its account) on `shard`, and its FTS block. */
export function placementSql(o: SeedOwner, shard: string, now: number): string[] {
  const out = [
    `INSERT OR IGNORE INTO shard_accounts (account_id, shard, state, updated_at) VALUES (${lit(o.account)}, ${lit(shard)}, 'active', ${now});`,
    `INSERT INTO shard_owners (account_id, namespace, user_id, shard, created_at) VALUES (${[o.account, o.namespace, o.user].map(lit).join(",")}, ${lit(shard)}, ${now});`,
  ];
  if (o.ftsBlock !== null)
    out.push(`INSERT INTO fts_owner_blocks (owner, block) VALUES (${lit(ownerAddressOf(o))}, ${o.ftsBlock});`);
  return out;
}

/** Runs `statements` against `binding` of the local D1 under `dir`. */
export function executeSql(dir: string, binding: string, statements: string[]): void {
  const file = join(dir, "seed.sql");
  writeFileSync(file, statements.join("\n"));
  const run = wrangler(["d1", "execute", binding, ...targetArgs("local"), "--file", file, "--yes"]);
  if (run.status !== 0) throw new ScriptError(`${binding}: ${failureText(run)}`);
}

/** Seeds `n` memories of `o` on the home database DB, placed there in the directory. */
export function seedOwner(dir: string, o: SeedOwner, n: number): void {
  const out = placementSql(o, "DB", Date.now());
  for (let from = 0; from < n; from += 100_000) out.push(...seedChunk(o, from, Math.min(n, from + 100_000)));
  executeSql(dir, "DB", out);
}
