/**
 * @module scripts/shards
 * `npm run shards -- <command>`: what each shard holds, and moving an account to another shard online
 * (docs/shards.md). Both go through the running Worker's admin routes (src/http/admin-shards.ts): a
 * move must reach both databases and serialize with the owners' writes in their Durable Objects,
 * which only the Worker can do. Errors are one line on stderr with exit code 1.
 */
import { parseArgs } from "node:util";
import { adminSecret } from "./lib/admin-secret.ts";
import { authHint, serverUrl } from "./lib/dev-url.ts";
import { ScriptError } from "./lib/wrangler-d1.ts";

const HELP = `Usage: npm run shards -- <command> [options]

Shards are the D1 databases that hold memory rows (MEMORY_SHARDS); the first, DB, also holds keys and
the shard directory. These commands call the running server's /admin/shards routes.

Commands:
  list [--json]         Per shard: accounts, users, memories and bytes.
                        --json prints {"shards": [{"binding","accounts","users","memories","bytes"}]}.
  move --account <id> --to <binding> [--owners-per-call <n>]
                        Move an account's rows to another shard while it stays in use: each user
                        crosses inside its own Durable Object (copy, count + checksum, switch, delete).
                        Interrupted? Run the same command again to resume, or --to <the old shard> to
                        roll back.

Options:
  --url <base>          Server to call (default $HIPPOCAMPUS_URL, else the running npm run dev, else http://127.0.0.1:8787).
                        The admin secret comes from $HIPPOCAMPUS_ADMIN_SECRET, else the dev server's
                        .wrangler/admin-secret.
  -h, --help            Show this help.`;

const OPTIONS = {
  json: { type: "boolean" },
  account: { type: "string" },
  to: { type: "string" },
  "owners-per-call": { type: "string" },
  url: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

interface ShardRow {
  binding: string;
  accounts: number;
  users: number;
  memories: number;
  bytes: number;
}

interface MoveStep {
  from: string;
  to: string;
  done: boolean;
  remaining: number;
  owners: {
    namespace: string;
    user_id: string;
    status: string;
    phase: string;
    verified: Record<string, { rows: number }>;
    removed: Record<string, number>;
    /** Rows the step read (copied, then verified): at most what one call's CPU time carries. */
    read?: { copied: number; verified: number };
  }[];
}

/** Most steps one move may take before the CLI stops and says so (each step moves up to n users). */
const MAX_STEPS = 100_000;

async function call<T>(base: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${adminSecret()}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ScriptError(`cannot reach ${base} (${(err as Error).message}); is the server running? (npm run dev)`);
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ScriptError(`${base}${path} answered ${res.status} with something that is not JSON`);
  }
  if (!res.ok) {
    const message = (parsed as { message?: string }).message ?? text;
    throw new ScriptError(`${base}${path} answered ${res.status}: ${message}${authHint(res.status)}`);
  }
  return parsed as T;
}

function table(rows: ShardRow[]): string {
  const head = ["binding", "accounts", "users", "memories", "bytes"];
  const cells = [head, ...rows.map((r) => [r.binding, r.accounts, r.users, r.memories, r.bytes].map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((c) => c[i].length)));
  return cells
    .map((c) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  "))
    .join("\n");
}

async function list(base: string, json: boolean): Promise<void> {
  const body = await call<{ shards: ShardRow[] }>(base, "/admin/shards");
  console.log(json ? JSON.stringify(body) : table(body.shards));
}

function perCall(text: string | undefined): number {
  const n = Number(text ?? 10);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new ScriptError("--owners-per-call must be an integer from 1 to 100");
  return n;
}

async function move(base: string, account: string | undefined, to: string | undefined, n: number): Promise<void> {
  if (!account) throw new ScriptError("move needs --account <id> (see --help)");
  if (!to) throw new ScriptError("move needs --to <binding> (see --help)");
  for (let i = 0; i < MAX_STEPS; i++) {
    const step = await call<MoveStep>(base, "/admin/shards/move", { account, to, owners_per_call: n });
    for (const o of step.owners) {
      if (o.status === "partial") {
        const removed = Object.values(o.removed).reduce((a, b) => a + b, 0);
        const read = o.read ? o.read.copied + o.read.verified : 0;
        const detail = [read ? `${read} rows read this step` : "", removed ? `${removed} rows deleted so far` : ""];
        const said = detail.filter(Boolean).join(", ");
        console.log(`crossing ${o.namespace}/${o.user_id}: ${o.phase}${said ? ` (${said})` : ""}…`);
        continue;
      }
      const rows = Object.entries(o.verified)
        .map(([table, v]) => `${table} ${v.rows}`)
        .join(", ");
      console.log(
        `${o.status === "moved" ? "moved" : "cleared"} ${o.namespace}/${o.user_id}${rows ? ` (${rows}, checksums match)` : ""}`,
      );
    }
    if (step.done) {
      console.log(`account ${account} is on ${step.to}`);
      return;
    }
  }
  throw new ScriptError(`the move did not finish in ${MAX_STEPS} steps; run it again to resume`);
}

async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new ScriptError(`${(err as Error).message.split(". ")[0]} (see --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    console.log(HELP);
    return;
  }
  const base = serverUrl(values.url ?? process.env.HIPPOCAMPUS_URL).url.replace(/\/+$/, "");
  const [command] = positionals;
  if (command === "list") return list(base, values.json === true);
  if (command === "move") return move(base, values.account, values.to, perCall(values["owners-per-call"]));
  throw new ScriptError(`unknown command "${command}" (see --help)`);
}

main(process.argv.slice(2)).catch((err) => {
  console.error(`shards: ${err instanceof ScriptError ? err.message : String(err)}`);
  process.exit(1);
});
