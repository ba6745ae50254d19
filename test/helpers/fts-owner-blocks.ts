/**
 * Runs migrations/0011 (each owner's FTS rows in a block of rowids) again on the test database, as a
 * deploy runs it over rows written before it: the block table is dropped first, then the
 * migration's own statements rebuild `memories_fts` and give every owner found there a block.
 */
import { env } from "cloudflare:workers";

export async function rerunFtsOwnerBlocks(): Promise<void> {
  const migration = env.TEST_MIGRATIONS!.find((m) => m.name.startsWith("0011_"));
  if (!migration) throw new Error("migration 0011 not found");
  await env.DB.batch([
    env.DB.prepare("DROP TABLE fts_owner_blocks"),
    ...migration.queries.map((q) => env.DB.prepare(q)),
  ]);
}
