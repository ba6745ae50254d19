/**
 * @module http/admin-shards
 * The operator's shard routes (docs/shards.md), called by `npm run shards`. A move has to run where
 * both databases and the owners' Durable Objects are reachable — inside the Worker — so the CLI calls
 * these instead of running SQL through wrangler. They exist only when the ADMIN_SECRET secret is set,
 * and answer only its bearer (compared in constant time).
 *   GET  /admin/shards       → {"shards": [{binding, accounts, users, memories, bytes}]}
 *   POST /admin/shards/move  {account, to, owners_per_call?} → one step of the move (jobs/move-account.ts)
 */
import type { Context, Hono, Next } from "hono";
import { z } from "zod";
import { invalidInput, MemoryError } from "../memory/errors";
import { principalIdSchema } from "../memory/ids";
import { moveAccountStep } from "../shards/move-account";
import { databaseBytes } from "../shards/shard-placement";
import type { AppEnv } from "./app-env";
import { errorBody } from "./error-response";

const moveBody = z.object({
  account: principalIdSchema.describe("The account to move"),
  to: z.string().min(1).max(64).describe("Binding of the shard to move it to (one MEMORY_SHARDS lists)"),
  owners_per_call: z.number().int().min(1).max(100).default(10).describe("Owners this call moves at most"),
});

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}

async function requireAdmin(c: Context<AppEnv>, next: Next): Promise<Response | undefined> {
  const secret = c.var.config.ADMIN_SECRET;
  if (secret === undefined) return c.json(errorBody("not_found", `No route for ${c.req.method} ${c.req.path}`), 404);
  const given = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
  if (!crypto.subtle.timingSafeEqual(await sha256(given), await sha256(secret)))
    throw new MemoryError("unauthorized", "This route needs the admin secret as a Bearer token");
  await next();
}

/** What a shard really holds (not what the directory says): accounts, owners and memory rows of any status. */
async function shardCounts(db: D1Database): Promise<{ accounts: number; users: number; memories: number }> {
  const row = await db
    .prepare(
      `SELECT (SELECT count(DISTINCT account_id) FROM memories) AS accounts,
              (SELECT count(*) FROM (SELECT DISTINCT account_id, namespace, user_id FROM memories)) AS users,
              (SELECT count(*) FROM memories) AS memories`,
    )
    .first<{ accounts: number; users: number; memories: number }>();
  return row ?? { accounts: 0, users: 0, memories: 0 };
}

async function listShards(c: Context<AppEnv>): Promise<Response> {
  const shards = await Promise.all(
    c.var
      .services()
      .shards()
      .map(async ({ binding, db }) => ({
        binding,
        ...(await shardCounts(db)),
        bytes: await databaseBytes(db),
      })),
  );
  return c.json({ shards });
}

async function moveStep(c: Context<AppEnv>): Promise<Response> {
  const parsed = moveBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidInput(String(issue.path[0] ?? "body"), issue.message);
  }
  const { account, to, owners_per_call } = parsed.data;
  if (!c.var.config.MEMORY_SHARDS.includes(to)) throw invalidInput("to", `"${to}" is not a shard MEMORY_SHARDS lists`);
  return c.json(await moveAccountStep(c.env, account, to, owners_per_call));
}

export function registerAdminRoutes(app: Hono<AppEnv>): void {
  app.use("/admin/*", requireAdmin);
  app.get("/admin/shards", listShards);
  app.post("/admin/shards/move", moveStep);
}
