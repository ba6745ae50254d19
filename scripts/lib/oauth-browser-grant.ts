/**
 * @module scripts/lib/oauth-browser-grant
 * An OAuth grant made the way a person makes one: the client registers itself (dynamic client
 * registration) and builds a PKCE authorization URL; the person opens it in a real browser, pastes
 * a user key and approves; the client catches the redirect to its loopback callback and exchanges
 * the code for tokens. Used by the browser tests (revoke a grant) and the screenshots.
 */
import { createHash, randomBytes } from "node:crypto";
import type { BrowserContext } from "playwright-core";

export const LOOPBACK_CALLBACK = "http://127.0.0.1:53682/callback";

export interface BrowserGrant {
  clientId: string;
  accessToken: string;
}

async function register(base: string, clientName: string): Promise<string> {
  const res = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: clientName,
      redirect_uris: [LOOPBACK_CALLBACK],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  if (res.status !== 201) throw new Error(`client registration answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizationUrl(base: string, clientId: string, challenge: string, lang: string): string {
  const url = new URL(`${base}/authorize`);
  const params = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: LOOPBACK_CALLBACK,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "memory:read memory:write",
    resource: `${base}/mcp`,
    state: randomBytes(8).toString("hex"),
    lang,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

/** Approves `clientName` on the authorization page (a new tab of `context`) with `key`; returns the client's access token. */
export async function grantThroughBrowser(
  context: BrowserContext,
  base: string,
  key: string,
  clientName: string,
  lang = "en",
): Promise<BrowserGrant> {
  const clientId = await register(base, clientName);
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(authorizationUrl(base, clientId, challenge, lang));
  await page.fill("#credential", key);
  // The redirect to the client's loopback callback is read off the request; nothing listens there (the
  // browser shows a connection error, as it would once a native app has closed its port).
  const [callback] = await Promise.all([
    page.waitForRequest((r) => r.url().startsWith(`${LOOPBACK_CALLBACK}?`)),
    page.click("button[value=approve]"),
  ]);
  await page.close();
  // The client name is the client's own words: the authorization page must show it as text.
  if (dialogs.length > 0) throw new Error(`the authorization page opened a dialog: ${dialogs.join(", ")}`);
  const code = new URL(callback.url()).searchParams.get("code");
  if (!code) throw new Error("the authorization page redirected without a code");
  const res = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: LOOPBACK_CALLBACK,
      client_id: clientId,
      code_verifier: verifier,
      resource: `${base}/mcp`,
    }),
  });
  if (!res.ok) throw new Error(`token exchange answered ${res.status}: ${await res.text()}`);
  return { clientId, accessToken: ((await res.json()) as { access_token: string }).access_token };
}
