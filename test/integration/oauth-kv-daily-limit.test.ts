/**
 * Workers Free's 1,000 KV writes a day (platform-limits/kv-daily-limits.ts): once OAUTH_KV refuses
 * writes with KV's daily-limit error, each OAuth step that writes (registration, the authorization
 * page, the token endpoint) answers a 429 naming the limit and the 00:00 UTC reset, never a 500; a
 * client already holding an access token, and a client with an API key, go on (they only read).
 * The fake is the real local KV namespace with `put` refusing as KV does (KVNamespace of workers-types).
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { consentMessages } from "../../src/http/oauth/consent-messages";
import { createKey, uniqueUser } from "../helpers/api-keys";
import {
  authorizeUrl,
  browserFetch,
  grantTokens,
  mcpPost,
  openConsentPage,
  pkcePair,
  registerClient,
  routeRequestsTo,
  routeRequestsToAppWith,
  tokenRequest,
  uniqueIp,
} from "../helpers/oauth";

/** KV's own words once the day's writes are spent (quoted by deployments that met it). */
const KV_REFUSAL = "KV put() limit exceeded for the day.";

function kvThatFills(real: KVNamespace): { kv: KVNamespace; full: { on: boolean } } {
  const full = { on: false };
  const kv = new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== "function") return value;
      if (prop === "put")
        return async (...args: unknown[]) => {
          if (full.on) throw new Error(KV_REFUSAL);
          return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        };
      return (...args: unknown[]) => Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
    },
  });
  return { kv, full };
}

const useAppWith = (kv: KVNamespace) => routeRequestsToAppWith({ OAUTH_KV: kv });

afterEach(() => routeRequestsTo());

const expectKvRefusal = async (response: Response) => {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(86_400);
  const body = (await response.json()) as Record<string, string>;
  expect(body).toMatchObject({ error: "quota_exceeded", field: "kv_writes_per_day" });
  expect(body.message).toContain("KV limit of 1,000 writes a day");
  expect(body.message).toContain("00:00 UTC");
  expect(body.error_description).toBe(body.message);
  expect(JSON.stringify(body)).not.toContain("at ");
};

describe("OAuth once KV's writes of the day are spent", () => {
  it("refresh, registration and the authorization page answer 429 naming the limit; tokens and API keys go on", async () => {
    const { kv, full } = kvThatFills(env.OAUTH_KV!);
    useAppWith(kv);
    const ip = uniqueIp();
    const { key } = await createKey({ user: uniqueUser() });
    const tokens = await grantTokens({ credential: key, ip });

    full.on = true;
    const refreshed = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: tokens.clientId },
      ip,
    );
    await expectKvRefusal(refreshed);

    const registration = await browserFetch(ip)("http://localhost/oauth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "late client", redirect_uris: ["http://127.0.0.1:33418/callback"] }),
    });
    await expectKvRefusal(registration);

    // The access token it already holds, and an API key, only read: both still reach the memory.
    expect((await mcpPost(tokens.access_token)).status).toBe(200);
    expect((await mcpPost(key)).status).toBe(200);

    full.on = false;
    const again = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: tokens.clientId },
      ip,
    );
    expect(again.status).toBe(200);
  });

  it("a person opening the sign-in page reads why and until when, in English and Chinese", async () => {
    const { kv, full } = kvThatFills(env.OAUTH_KV!);
    useAppWith(kv);
    const ip = uniqueIp();
    const { clientId, redirectUri } = await registerClient(ip);
    const { challenge } = await pkcePair();
    full.on = true;
    const en = await browserFetch(ip, { "accept-language": "en" })(authorizeUrl({ clientId, redirectUri, challenge }));
    expect(en.status).toBe(429);
    expect(Number(en.headers.get("retry-after"))).toBeGreaterThan(0);
    const html = await en.text();
    expect(html).toContain(consentMessages("en").kvDailyLimit.replaceAll("'", "&#39;"));
    const zh = await browserFetch(ip)(authorizeUrl({ clientId, redirectUri, challenge, lang: "zh" }));
    expect(zh.status).toBe(429);
    expect(await zh.text()).toContain("登录暂停至 UTC 00:00");
    full.on = false;
    const page = await openConsentPage(authorizeUrl({ clientId, redirectUri, challenge }), ip);
    expect(page.html).toContain("memory:read");
  });
});
