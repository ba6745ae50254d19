/**
 * @module scripts/lib/admin-secret
 * The bearer of the admin routes (/admin/shards, ADMIN_SECRET) for the operator scripts. The dev
 * server makes one on first start and keeps it in .wrangler/admin-secret (never committed), passing it
 * to wrangler dev as a var; against a deployment, set HIPPOCAMPUS_ADMIN_SECRET to the secret you put
 * with `wrangler secret put ADMIN_SECRET`.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { ScriptError } from "./wrangler-d1.ts";

const FILE = ".wrangler/admin-secret";

/** The dev server's admin secret, made on first use. */
export function devAdminSecret(): string {
  if (existsSync(FILE)) return readFileSync(FILE, "utf8").trim();
  mkdirSync(".wrangler", { recursive: true });
  const secret = randomBytes(24).toString("hex");
  writeFileSync(FILE, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** The secret a CLI call sends: HIPPOCAMPUS_ADMIN_SECRET, else the dev server's. */
export function adminSecret(): string {
  const fromEnv = process.env.HIPPOCAMPUS_ADMIN_SECRET;
  if (fromEnv) return fromEnv;
  if (existsSync(FILE)) return readFileSync(FILE, "utf8").trim();
  throw new ScriptError(
    "no admin secret: start the dev server once (npm run dev), or set HIPPOCAMPUS_ADMIN_SECRET to the deployment's ADMIN_SECRET",
  );
}
