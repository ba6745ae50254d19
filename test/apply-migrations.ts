import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Every shard gets every migration (docs/shards.md); DB_SHARD_1 is declared in [env.test].
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS!);
if (env.DB_SHARD_1) await applyD1Migrations(env.DB_SHARD_1, env.TEST_MIGRATIONS!);
