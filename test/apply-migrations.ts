/**
 * Set-up of every workerd test file: migrations applied, then every table emptied. The `main` project
 * runs its files one after another in the same workerd (`isolate: false`, vitest.config.ts), so without
 * the wipe a file would see the rows of the files before it: BM25's corpus statistics (recall's scores
 * and abstention), the cron's walk over every user and row counts would depend on the order files run
 * in. Emptying costs a few statements; a project that isolates files starts empty anyway.
 */
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

/** Deletes every row of every table of `db`, FTS5 tables through themselves (never their shadow tables). */
async function emptied(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
    )
    .all<{ name: string; sql: string | null }>();
  const virtual = results.filter((t) => t.sql?.startsWith("CREATE VIRTUAL TABLE")).map((t) => t.name);
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  const tables = results.map((t) => t.name).filter((name) => !shadow(name));
  if (tables.length > 0) await db.batch(tables.map((name) => db.prepare(`DELETE FROM "${name}"`)));
}

// Every shard gets every migration (docs/shards.md); DB_SHARD_1 is declared in [env.test].
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS!);
await emptied(env.DB);
if (env.DB_SHARD_1) {
  await applyD1Migrations(env.DB_SHARD_1, env.TEST_MIGRATIONS!);
  await emptied(env.DB_SHARD_1);
}
