/**
 * @module http/auth
 * Bearer-key authentication: `Authorization: Bearer hc_…` → Principal. Missing or bad keys get a
 * 401 JSON body with WWW-Authenticate. Keys are compared by SHA-256 hash only.
 */
import type { Context, MiddlewareHandler } from "hono";
import { D1ApiKeyRepo } from "../storage/d1-api-key-repo";
import type { AppEnv } from "./app-env";
import type { Principal } from "./principal";
import { errorBody } from "./error-response";

export function challengeHeader(c: Context<AppEnv>, error?: string): string {
  const parts = [`Bearer realm="hippocampus"`];
  if (error) parts.push(`error="${error}"`);
  const metadata = c.get("resourceMetadataUrl");
  if (metadata) parts.push(`resource_metadata="${metadata}"`);
  return parts.join(", ");
}

function unauthorized(c: Context<AppEnv>, message: string, error?: string): Response {
  return c.json(errorBody("unauthorized", message), 401, { "WWW-Authenticate": challengeHeader(c, error) });
}

export async function principalFromKey(db: D1Database, presented: string, now: number): Promise<Principal | null> {
  const repo = new D1ApiKeyRepo(db);
  const row = await repo.findActive(presented);
  if (!row) return null;
  await repo.touch(row.id, now);
  return {
    accountId: row.accountId, scope: row.scope === "app" ? "app" : "user", userId: row.userId,
    appName: row.appName, keyId: row.id, canWrite: true,
  };
}

export const requireApiKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("principal")) return next();
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) return unauthorized(c, "Missing bearer credentials: send Authorization: Bearer <key>");
  const principal = await principalFromKey(c.env.DB, match[1], Date.now());
  if (!principal) return unauthorized(c, "The key is unknown or revoked", "invalid_token");
  c.set("principal", principal);
  return next();
};
