/**
 * @module http/oauth/access-token
 * Turns an OAuth access token presented to /mcp or /sse into the same Principal an API key gives.
 * The library checks the token (its hash in KV, expiry, audience = this resource); this module
 * adds what only we know: the props' shape, the scopes, and that the key the grant was made with
 * is still live. A grant whose key was revoked is deleted on first use, off the hot path.
 */

import type { Principal } from "../../access/principal";
import type { ApiKeyStore } from "../../accounts/account-ports";
import type { Config } from "../../config";
import type { Env } from "../../env";
import { grantPropsSchema } from "./grant-props";
import { allowsAccess, allowsWrite } from "./oauth-scopes";
import { type OAuthSite, resourceForPath } from "./oauth-site";
import { isCredentialLive } from "./sign-in";

/** Access tokens are `{grantSubject}:{grantId}:{secret}` (the library's documented format). */
function grantOf(token: string): { subject: string; grantId: string } | null {
  const parts = token.split(":");
  return parts.length === 3 ? { subject: parts[0], grantId: parts[1] } : null;
}

/** What checking a token needs besides the library: the grant's key, the passphrase, and a way to clean up later. */
export interface AccessTokenDeps {
  keys: ApiKeyStore;
  config: Config;
  waitUntil: (p: Promise<unknown>) => void;
}

export async function principalFromAccessToken(
  env: Env,
  site: OAuthSite,
  path: string,
  token: string,
  { keys, config, waitUntil }: AccessTokenDeps,
): Promise<Principal | null> {
  const resource = resourceForPath(site, path);
  if (!resource) return null;
  const validated = await site.server.validateToken(resource.resource, token, env);
  if (!validated) return null;
  const props = grantPropsSchema.safeParse(validated.props);
  if (!props.success || !allowsAccess(validated.scope)) return null;
  if (!(await isCredentialLive(keys, config, props.data))) {
    const grant = grantOf(token);
    if (grant)
      waitUntil(
        site.server
          .getOAuthApi(env)
          .revokeGrant(grant.grantId, grant.subject)
          .catch(() => undefined),
      );
    return null;
  }
  return {
    accountId: props.data.accountId,
    scope: "user",
    userId: props.data.userId,
    appName: null,
    keyId: props.data.keyId,
    credential: `grant:${grantOf(token)?.grantId ?? props.data.keyId}`,
    // The token's own scopes, not the grant's: a token request may narrow them.
    canWrite: props.data.canWrite && allowsWrite(validated.scope),
  };
}
