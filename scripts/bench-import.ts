/**
 * @module scripts/bench-import
 * The bulk-import batch benchmark: `npm run bench:import [-- --lines 5000]`.
 * Starts the offline server twice on throwaway state (wrangler dev --env dev --local, 127.0.0.1):
 * once as deployed (IMPORT_BATCH_ROWS default rows per D1 batch, three multi-row statements) and once
 * with IMPORT_BATCH_ROWS equal to the line count (the whole import as one D1 batch, as before), and
 * imports the same generated lines in one POST /v1/import each. Prints, per run, the D1 batches
 * the server wrote, the longest batch's wall time (as the server measured it) and the request time.
 * Compare the two rows of one run; the machine is shared and absolute figures move.
 */
import { parseArgs } from "node:util";
import { say, withBenchServer } from "./lib/bench-server.ts";
import { postImport, type SourceLine } from "./lib/import-client.ts";
import { ScriptError } from "./lib/wrangler-d1.ts";

const TOPICS = ["tea", "hiking", "the garden", "Rust", "jazz", "Kyoto", "the bike", "chess"];

/** Generated conversation lines, ten turns per source, English and Chinese mixed. */
function generated(count: number): SourceLine[] {
  return Array.from({ length: count }, (_, i) => {
    const topic = TOPICS[i % TOPICS.length];
    const content =
      i % 3 === 0
        ? `第${i}条：我上周和朋友聊到${topic}，决定下个月再试一次。`
        : `Line ${i}: I talked about ${topic} with a friend and decided to try again next month.`;
    const source = `bench:conversation-${Math.floor(i / 10)}`;
    return { fileLine: i + 1, text: JSON.stringify({ content, source, external_id: `bench-${i}` }), source };
  });
}

interface Row {
  label: string;
  batchRows: string;
  batches: number;
  longestMs: number;
  requestMs: number;
}

function run(label: string, lines: SourceLine[], vars: Record<string, string>): Promise<Row> {
  return withBenchServer({ keyName: "bench-import", vars, timeoutMs: 90_000 }, async ({ base, key }) => {
    say(`${label}: importing ${lines.length} lines in one request`);
    const started = Date.now();
    const r = await postImport(base, key, lines, { user: "bench-import" });
    const requestMs = Date.now() - started;
    if (!r.ok) throw new ScriptError(`${label}: import failed (${r.status}): ${r.message}`);
    if (r.body.imported !== lines.length)
      throw new ScriptError(`${label}: imported ${r.body.imported} of ${lines.length}`);
    return {
      label,
      batchRows: vars.IMPORT_BATCH_ROWS ?? "100 (default)",
      batches: r.body.batches?.count ?? 0,
      longestMs: r.body.batches?.longest_ms ?? 0,
      requestMs,
    };
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { lines: { type: "string" } } });
  const count = Number(values.lines ?? 5000);
  if (!Number.isInteger(count) || count < 1 || count > 5000) throw new ScriptError("--lines takes 1 to 5000");
  const lines = generated(count);
  const rows = [
    await run("bounded batches", lines, {}),
    await run("one batch (before)", lines, { IMPORT_BATCH_ROWS: String(count) }),
  ];
  console.log(`Bulk import of ${count} lines (one POST /v1/import), wrangler dev --local:`);
  console.log("run                  | rows per batch | D1 batches | longest batch ms | request ms");
  for (const r of rows)
    console.log(
      `${r.label.padEnd(20)} | ${r.batchRows.padEnd(14)} | ${String(r.batches).padStart(10)} | ${String(r.longestMs).padStart(16)} | ${String(r.requestMs).padStart(10)}`,
    );
}

main().catch((err) => {
  console.error(`bench:import: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
