/**
 * Re-authorising a client keeps the person's other sessions: completeAuthorization runs with
 * revokeExistingGrants: false, so a second sign-in for the same client (another machine with the same
 * client id, e.g. one client-ID metadata document) does not revoke the first grant's tokens.
 */
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import {
  approveInBrowser,
  authorizeUrl,
  mcpPost,
  pkcePair,
  registerClient,
  type Tokens,
  tokenRequest,
  uniqueIp,
} from "../helpers/oauth";

async function authorizeOnce(clientId: string, redirectUri: string, credential: string, ip: string): Promise<Tokens> {
  const { verifier, challenge } = await pkcePair();
  const callback = await approveInBrowser(authorizeUrl({ clientId, redirectUri, challenge }), { credential, ip });
  const code = callback.searchParams.get("code") ?? "";
  const response = await tokenRequest(
    { grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier },
    ip,
  );
  expect(response.status).toBe(200);
  return (await response.json()) as Tokens;
}

describe("re-authorising the same client", () => {
  it("leaves the earlier grant's access and refresh tokens working", async () => {
    const ip = uniqueIp();
    const { key } = await createKey({ user: uniqueUser("reauth") });
    const { clientId, redirectUri } = await registerClient(ip, { name: "Two-device client" });
    const laptop = await authorizeOnce(clientId, redirectUri, key, ip);
    const phone = await authorizeOnce(clientId, redirectUri, key, ip);
    expect(phone.access_token).not.toBe(laptop.access_token);
    expect((await mcpPost(phone.access_token)).status).toBe(200);
    expect((await mcpPost(laptop.access_token)).status).toBe(200);
    const refreshed = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: laptop.refresh_token, client_id: clientId },
      ip,
    );
    expect(refreshed.status).toBe(200);
  });
});
