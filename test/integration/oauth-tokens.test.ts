import { afterEach, describe, expect, it, vi } from "vitest";
import { createKey, revokeKey, uniqueUser } from "../helpers/api-keys";
import {
  authorizeUrl,
  grantTokens,
  mcpPost,
  openConsentPage,
  pkcePair,
  postConsent,
  registerClient,
  routeRequestsTo,
  routeRequestsToAppWith,
  tokenRequest,
  uniqueIp,
} from "../helpers/oauth";

async function refresh(refreshToken: string, clientId: string, ip: string, extra: Record<string, string> = {}) {
  return tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, ...extra }, ip);
}

describe("tokens", () => {
  it("are short-lived bearer tokens bound to the resource they were asked for", async () => {
    const ip = uniqueIp();
    const { key } = await createKey({ user: uniqueUser() });
    const mcp = await grantTokens({ credential: key, ip });
    expect(mcp.expires_in).toBe(3600);
    expect(mcp.resource).toBe("http://localhost/mcp");
    expect((await mcpPost(mcp.access_token, "/mcp")).status).toBe(200);
    // RFC 8707 audience: a token for /mcp is not accepted at /sse, nor the reverse.
    expect((await mcpPost(mcp.access_token, "/sse/message?sessionId=x")).status).toBe(401);
    const sse = await grantTokens({ credential: key, ip }, { resource: "http://localhost/sse" });
    expect(sse.resource).toBe("http://localhost/sse");
    expect((await mcpPost(sse.access_token, "/mcp")).status).toBe(401);
  });

  it("refresh tokens rotate: an old one is spent once its successor is used", async () => {
    const ip = uniqueIp();
    const { key } = await createKey({ user: uniqueUser() });
    const first = await grantTokens({ credential: key, ip });
    const second = await refresh(first.refresh_token, first.clientId, ip);
    expect(second.status).toBe(200);
    const r2 = (await second.json()) as { refresh_token: string; access_token: string };
    expect(r2.refresh_token).not.toBe(first.refresh_token);
    expect((await mcpPost(r2.access_token)).status).toBe(200);

    const third = await refresh(r2.refresh_token, first.clientId, ip);
    expect(third.status).toBe(200);
    const r3 = (await third.json()) as { refresh_token: string };
    const spent = await refresh(first.refresh_token, first.clientId, ip);
    expect(spent.status).toBe(400);
    expect(await spent.json()).toMatchObject({ error: "invalid_grant" });
    // The grant itself survives: the newest refresh token still works.
    expect((await refresh(r3.refresh_token, first.clientId, ip)).status).toBe(200);
  });

  it("a refresh cannot widen a read-only grant, and may narrow a read-write one", async () => {
    const ip = uniqueIp();
    const { key } = await createKey({ user: uniqueUser() });
    const reader = await grantTokens({ credential: key, ip, access: "read" });
    expect(reader.scope).toBe("memory:read");
    const widened = await refresh(reader.refresh_token, reader.clientId, ip, { scope: "memory:read memory:write" });
    expect(widened.status).toBe(200);
    expect(((await widened.json()) as { scope: string }).scope).toBe("memory:read");
    const writer = await grantTokens({ credential: key, ip });
    const narrowed = await refresh(writer.refresh_token, writer.clientId, ip, { scope: "memory:read" });
    expect(((await narrowed.json()) as { scope: string }).scope).toBe("memory:read");
  });

  it("revoking the user key stops its grants: access tokens at once, refresh after", async () => {
    const ip = uniqueIp();
    const user = uniqueUser();
    const { key, id } = await createKey({ user });
    const tokens = await grantTokens({ credential: key, ip });
    expect((await mcpPost(tokens.access_token)).status).toBe(200);
    await revokeKey(id);
    const refused = await mcpPost(tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const refreshed = await refresh(tokens.refresh_token, tokens.clientId, ip);
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({ error: "invalid_grant" });
    // A new key for the same user does not bring the old grant back.
    await createKey({ user });
    expect((await mcpPost(tokens.access_token)).status).toBe(401);
  });

  it("a refresh alone notices the revoked key and ends the grant", async () => {
    const ip = uniqueIp();
    const { key, id } = await createKey({ user: uniqueUser() });
    const tokens = await grantTokens({ credential: key, ip });
    await revokeKey(id);
    const refreshed = await refresh(tokens.refresh_token, tokens.clientId, ip);
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringContaining("revoked"),
    });
    // The grant is gone with its tokens, not merely refused.
    expect((await mcpPost(tokens.access_token)).status).toBe(401);
    expect(await (await refresh(tokens.refresh_token, tokens.clientId, ip)).json()).toMatchObject({
      error_description: "Grant not found",
    });
  });

  it("the code is bound to its PKCE verifier and works once", async () => {
    const ip = uniqueIp();
    const { key } = await createKey({ user: uniqueUser() });
    const { clientId, redirectUri } = await registerClient(ip);
    async function codeFor(challenge: string): Promise<string> {
      const page = await openConsentPage(authorizeUrl({ clientId, redirectUri, challenge }), ip);
      return new URL((await postConsent(page, { credential: key, ip })).headers.get("location")!).searchParams.get(
        "code",
      )!;
    }
    const exchange = (code: string, verifier: string) =>
      tokenRequest(
        {
          grant_type: "authorization_code",
          code,
          redirect_uri: redirectUri,
          client_id: clientId,
          code_verifier: verifier,
        },
        ip,
      );
    const first = await pkcePair();
    const wrong = await exchange(await codeFor(first.challenge), (await pkcePair()).verifier);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });
    const second = await pkcePair();
    const code = await codeFor(second.challenge);
    expect((await exchange(code, second.verifier)).status).toBe(200);
    const replay = await exchange(code, second.verifier);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
  });
});

describe("single-user passphrase (OAUTH_PASSPHRASE secret)", () => {
  const PASSPHRASE = "correct horse battery staple";
  const useApp = (vars: Record<string, string>) => routeRequestsToAppWith(vars as Partial<Env>);
  afterEach(() => routeRequestsTo());

  it("signs in as the configured user, and rotating the secret ends those grants", async () => {
    const user = uniqueUser("owner");
    useApp({ OAUTH_PASSPHRASE: PASSPHRASE, OAUTH_PASSPHRASE_USER: user });
    const ip = uniqueIp();
    const { clientId, redirectUri } = await registerClient(ip);
    const { challenge } = await pkcePair();
    const page = await openConsentPage(authorizeUrl({ clientId, redirectUri, challenge }), ip);
    expect(page.html).toContain("Your Hippocampus user key or passphrase");
    const wrong = await postConsent(page, { credential: "not the passphrase at all", ip });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("The key or passphrase is not right.");

    const tokens = await grantTokens({ credential: PASSPHRASE, ip });
    expect((await mcpPost(tokens.access_token)).status).toBe(200);
    useApp({ OAUTH_PASSPHRASE: "a brand new passphrase", OAUTH_PASSPHRASE_USER: user });
    expect((await mcpPost(tokens.access_token)).status).toBe(401);
  });

  it("is refused when no passphrase is configured", async () => {
    const ip = uniqueIp();
    const { clientId, redirectUri } = await registerClient(ip);
    const { challenge } = await pkcePair();
    const page = await openConsentPage(authorizeUrl({ clientId, redirectUri, challenge }), ip);
    expect(page.html).not.toContain("or passphrase");
    const response = await postConsent(page, { credential: PASSPHRASE, ip });
    expect(response.status).toBe(401);
    expect(await response.text()).toContain("That is not a user key");
  });

  it("a passphrase shorter than 12 characters is a configuration error, never a weak sign-in", async () => {
    useApp({ OAUTH_PASSPHRASE: "short" });
    const ip = uniqueIp();
    const response = await openConsentPage(authorizeUrl({ clientId: "x", redirectUri: "http://127.0.0.1/cb" }), ip);
    expect(response.status).toBe(500);
    expect(response.html).not.toContain("short");
  });
});

describe("logging", () => {
  afterEach(() => vi.restoreAllMocks());

  it("never writes a key, code or token to the logs, even on failures", async () => {
    const lines: string[] = [];
    for (const level of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(" "));
      });
    }
    const ip = uniqueIp();
    const { key, id } = await createKey({ user: uniqueUser() });
    const { clientId, redirectUri } = await registerClient(ip);
    const { verifier, challenge } = await pkcePair();
    const page = await openConsentPage(authorizeUrl({ clientId, redirectUri, challenge }), ip);
    await postConsent(page, { credential: `${key}x`, ip });
    const code = new URL((await postConsent(page, { credential: key, ip })).headers.get("location")!).searchParams.get(
      "code",
    )!;
    const tokens = (await (
      await tokenRequest(
        {
          grant_type: "authorization_code",
          code,
          redirect_uri: redirectUri,
          client_id: clientId,
          code_verifier: verifier,
        },
        ip,
      )
    ).json()) as { access_token: string; refresh_token: string };
    await tokenRequest(
      {
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: verifier,
      },
      ip,
    );
    await revokeKey(id);
    await refresh(tokens.refresh_token, clientId, ip);
    await mcpPost(tokens.access_token);
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of [key, code, tokens.access_token, tokens.refresh_token, page.handle]) {
      for (const line of lines) expect(line).not.toContain(secret);
      // Tokens are user:grant:secret; the secret part alone must not leak either.
      for (const line of lines) expect(line).not.toContain(secret.split(":").at(-1)!);
    }
  });
});
