/**
 * @module http/dashboard/client-grants
 * The signed-in person's OAuth grants through the OAuth library's own API: grants are stored under
 * the person's grant subject (http/oauth/grant-props.ts), so listing or revoking can only ever
 * reach this person's grants. Without OAuth on this deployment there are none (null).
 */
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { grantMetadataSchema, grantSubject } from "../oauth/grant-props";
import { oauthSite, REFRESH_IDLE_TTL_SECONDS } from "../oauth/oauth-site";
import type { ClientGrant } from "./clients-page";

const MAX_PAGES = 10;

export async function listGrants(c: Context<AppEnv>, accountId: string, userId: string): Promise<ClientGrant[] | null> {
  const site = oauthSite(c);
  if (!site) return null;
  const api = site.server.getOAuthApi(c.env);
  const out: ClientGrant[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await api.listUserGrants(grantSubject(accountId, userId), { cursor });
    for (const g of result.items) {
      const meta = grantMetadataSchema.safeParse(g.metadata);
      out.push({
        id: g.id,
        clientName: meta.success ? meta.data.clientName : g.clientId,
        scopes: g.scope,
        createdAt: g.createdAt * 1000,
        // Each refresh moves the expiry REFRESH_IDLE_TTL_SECONDS out: expiry minus that is the last refresh.
        lastRefreshedAt: g.expiresAt ? (g.expiresAt - REFRESH_IDLE_TTL_SECONDS) * 1000 : null,
      });
    }
    cursor = result.cursor;
    if (!cursor) break;
  }
  return out.sort((a, b) => b.createdAt - a.createdAt);
}

/**
 * Revokes one of this person's grants; false when they have none by that id (another person's, or
 * none at all), so the page never says "revoked" when nothing was (the library's revoke is silent).
 */
export async function revokeGrant(
  c: Context<AppEnv>,
  accountId: string,
  userId: string,
  grantId: string,
): Promise<boolean> {
  const site = oauthSite(c);
  if (!site) return false;
  const own = await listGrants(c, accountId, userId);
  if (!own?.some((g) => g.id === grantId)) return false;
  await site.server.getOAuthApi(c.env).revokeGrant(grantId, grantSubject(accountId, userId));
  return true;
}
