import { describe, expect, it } from "vitest";
import { createKey, revokeKey, uniqueUser } from "../helpers/api-keys";
import {
  authorizeUrl,
  openConsentPage,
  pkcePair,
  postConsent,
  REDIRECT_URI,
  registerClient,
  uniqueIp,
} from "../helpers/oauth";

async function freshRequest(opts: { name?: string; redirectUris?: string[]; scope?: string; lang?: string } = {}) {
  const ip = uniqueIp();
  const { clientId, redirectUri } = await registerClient(ip, opts);
  const { challenge } = await pkcePair();
  return {
    ip,
    clientId,
    redirectUri,
    url: authorizeUrl({ clientId, redirectUri, challenge, scope: opts.scope, lang: opts.lang }),
  };
}

describe("the authorization page", () => {
  it("shows the client, where access goes and what it asks for, in English by default", async () => {
    const { url, ip } = await freshRequest({ name: "Claude" });
    const page = await openConsentPage(url, ip, "en-GB,en;q=0.9");
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="en">');
    expect(page.html).toContain('Allow <span class="client">Claude</span> to use your Hippocampus memory?');
    expect(page.html).toContain("<strong>127.0.0.1</strong>");
    expect(page.html).toContain("This sends access to an app on your own computer");
    expect(page.html).toContain("This app registered itself; its name is not verified.");
    expect(page.html).toMatch(/<input type="radio" id="access-write" name="access" value="write" checked/);
    expect(page.html).toContain('id="access-read"');
    expect(page.html).toContain("memory:read memory:write");
    expect(page.html).toMatch(/<label class="field" for="credential">Your Hippocampus user key<\/label>/);
    expect(page.html).toMatch(/<input type="password" id="credential" name="credential"[^>]* required autofocus/);
    expect(page.handle).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(page.cookie).toMatch(/^__Host-/);
  });

  it("speaks Chinese to a Chinese browser, and ?lang= overrides the browser", async () => {
    const { url, ip } = await freshRequest({ name: "Cursor" });
    const zh = await openConsentPage(url, ip, "zh-CN,zh;q=0.9,en;q=0.8");
    expect(zh.html).toContain('<html lang="zh-CN">');
    expect(zh.html).toContain('允许 <span class="client">Cursor</span> 使用你的 Hippocampus 记忆吗？');
    expect(zh.html).toContain("你的 Hippocampus 用户密钥");
    expect(zh.html).toContain(">English</a>");
    const forced = await openConsentPage(`${url.href}&lang=en`, ip, "zh-CN");
    expect(forced.html).toContain('<html lang="en">');
    const preferred = await openConsentPage(url, ip, "en;q=0.5, zh-TW;q=0.8");
    expect(preferred.html).toContain('<html lang="zh-CN">');
  });

  it("escapes whatever the client registered", async () => {
    const { url, ip } = await freshRequest({ name: `<img src=x onerror="alert(1)">` });
    const page = await openConsentPage(url, ip);
    expect(page.html).not.toContain("<img src=x");
    expect(page.html).toContain("&#60;img src=x onerror=&#34;alert(1)&#34;&#62;");
  });

  it("cannot be framed, cached or made to run script", async () => {
    const { url, ip } = await freshRequest();
    const page = await openConsentPage(url, ip);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("script-src");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(page.html).not.toContain("<script");
  });

  it("offers only read access to a client that asked only for memory:read", async () => {
    const { url, ip } = await freshRequest({ scope: "memory:read" });
    const page = await openConsentPage(url, ip);
    expect(page.html).toContain('id="access-read"');
    expect(page.html).not.toContain('id="access-write"');
    const { key } = await createKey({ user: uniqueUser() });
    const escalate = await postConsent(page, { credential: key, access: "write", ip });
    expect(escalate.status).toBe(400);
    expect(await escalate.text()).toContain("Choose what the app may do.");
  });
});

describe("the redirect URI must match the registered one exactly", () => {
  it.each([
    ["a longer path", "https://client.example/cb/extra"],
    ["a trailing slash", "https://client.example/cb/"],
    ["an added query", "https://client.example/cb?next=1"],
    ["another host", "https://evil.example/cb"],
    ["http instead of https", "http://client.example/cb"],
  ])("refuses %s without redirecting anywhere", async (_, asked) => {
    const ip = uniqueIp();
    const { clientId } = await registerClient(ip, { redirectUris: ["https://client.example/cb"] });
    const { challenge } = await pkcePair();
    const page = await openConsentPage(authorizeUrl({ clientId, redirectUri: asked, challenge }), ip);
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
    expect(page.handle).toBe("");
  });

  it("accepts the registered one", async () => {
    const ip = uniqueIp();
    const { clientId } = await registerClient(ip, { redirectUris: ["https://client.example/cb"] });
    const { challenge } = await pkcePair();
    const page = await openConsentPage(
      authorizeUrl({ clientId, redirectUri: "https://client.example/cb", challenge }),
      ip,
    );
    expect(page.status).toBe(200);
    expect(page.html).toContain("<strong>client.example</strong>");
    expect(page.html).not.toContain("an app on your own computer");
  });
});

describe("native apps", () => {
  const CURSOR = [
    "cursor://anysphere.cursor-mcp/oauth/callback",
    "https://www.cursor.com/agents/mcp/oauth/callback",
    "http://localhost:8787/callback",
  ];

  it("Cursor's own-scheme callback works, and the page says it goes to an app on this computer", async () => {
    const ip = uniqueIp();
    const { clientId } = await registerClient(ip, { name: "Cursor", redirectUris: CURSOR });
    const { challenge } = await pkcePair();
    const page = await openConsentPage(authorizeUrl({ clientId, redirectUri: CURSOR[0], challenge }), ip);
    expect(page.status).toBe(200);
    expect(page.html).toContain("<strong>cursor://anysphere.cursor-mcp</strong>");
    expect(page.html).toContain("This sends access to an app on your own computer");
    const { key } = await createKey({ user: uniqueUser() });
    const approved = await postConsent(page, { credential: key, ip });
    expect(approved.status).toBe(302);
    expect(approved.headers.get("location")).toMatch(/^cursor:\/\/anysphere\.cursor-mcp\/oauth\/callback\?code=/);
  });

  it("refuses to register a dangerous redirect scheme", async () => {
    const ip = uniqueIp();
    await expect(
      registerClient(ip, { redirectUris: ["https://ok.example/cb", "javascript:alert(1)"] }),
    ).rejects.toThrow(/registration answered 400/);
  });
});

describe("client ID metadata documents", () => {
  it("renders an error on this page, never a redirect, when the client's document cannot be fetched", async () => {
    const ip = uniqueIp();
    const { challenge } = await pkcePair();
    const url = authorizeUrl({
      clientId: "https://client.invalid/oauth/metadata.json",
      redirectUri: "https://client.invalid/cb",
      challenge,
    });
    const page = await openConsentPage(url, ip);
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
    expect(page.html).toContain("the client metadata document could not be verified");
  });
});

describe("PKCE", () => {
  it.each([
    ["without a code challenge", undefined, undefined],
    ["with the plain method", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqr", "plain"],
  ])("refuses a public client %s", async (_, challenge, method) => {
    const ip = uniqueIp();
    const { clientId, redirectUri } = await registerClient(ip);
    const page = await openConsentPage(authorizeUrl({ clientId, redirectUri, challenge, method }), ip);
    expect(page.handle).toBe("");
    const location = page.headers.get("location");
    // The redirect URI was validated, so the error goes back to the client, never a code.
    expect(page.status).toBe(302);
    const back = new URL(location!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("code")).toBeNull();
  });
});

describe("signing in and approving", () => {
  it("re-shows the page for a wrong key, then approves with the right one on the same page", async () => {
    const { url, ip, redirectUri } = await freshRequest();
    const page = await openConsentPage(url, ip);
    const wrong = await postConsent(page, { credential: "hc_0000000000000000000000000000000000000000", ip });
    expect(wrong.status).toBe(401);
    const html = await wrong.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain("That key is unknown or revoked.");
    expect(html).toMatch(/aria-invalid="true"/);
    expect(html).toContain(`name="handle" value="${page.handle}"`);
    const { key } = await createKey({ user: uniqueUser() });
    const right = await postConsent(page, { credential: key, ip });
    expect(right.status).toBe(302);
    const back = new URL(right.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get("code")).toBeTruthy();
    expect(back.searchParams.get("state")).toBe("state-123");
    expect(back.searchParams.get("iss")).toBe("http://localhost");
  });

  it.each([
    ["an app key", async () => (await createKey({ app: "bot" })).key, "That is an app key"],
    [
      "a revoked key",
      async () => {
        const k = await createKey({ user: uniqueUser() });
        await revokeKey(k.id);
        return k.key;
      },
      "unknown or revoked",
    ],
    ["something that is not a key", async () => "my password", "That is not a user key"],
    ["nothing", async () => "   ", "Enter your user key."],
  ])("refuses %s", async (_, credential, message) => {
    const { url, ip } = await freshRequest();
    const page = await openConsentPage(url, ip);
    const response = await postConsent(page, { credential: await credential(), ip });
    expect(response.status).toBe(401);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toContain(message);
  });

  it("sends access_denied back to the client when the person denies", async () => {
    const { url, ip } = await freshRequest();
    const page = await openConsentPage(url, ip);
    const response = await postConsent(page, { credential: "", decision: "deny", ip });
    expect(response.status).toBe(302);
    const back = new URL(response.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("state-123");
    expect(back.searchParams.get("code")).toBeNull();
  });
});

describe("CSRF protection on the approval form", () => {
  async function pageAndKey() {
    const { url, ip } = await freshRequest();
    const page = await openConsentPage(url, ip);
    const { key } = await createKey({ user: uniqueUser() });
    return { page, key, ip };
  }

  it("refuses a post without the browser's binding cookie", async () => {
    const { page, key, ip } = await pageAndKey();
    const response = await postConsent({ handle: page.handle, cookie: "" }, { credential: key, ip });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toContain("opened in another browser");
  });

  it("refuses a handle paired with another page's cookie", async () => {
    const { page, key, ip } = await pageAndKey();
    const other = await openConsentPage((await freshRequest()).url, ip);
    const response = await postConsent({ handle: page.handle, cookie: other.cookie }, { credential: key, ip });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
  });

  it("refuses a post from another site", async () => {
    const { page, key, ip } = await pageAndKey();
    const byOrigin = await postConsent(page, { credential: key, ip }, { origin: "https://evil.example" });
    expect(byOrigin.status).toBe(403);
    const byFetchSite = await postConsent(page, { credential: key, ip }, { "sec-fetch-site": "cross-site" });
    expect(byFetchSite.status).toBe(403);
    // Neither consumed the handle: the genuine post still works.
    expect((await postConsent(page, { credential: key, ip })).status).toBe(302);
  });

  it("accepts a handle once", async () => {
    const { page, key, ip } = await pageAndKey();
    expect((await postConsent(page, { credential: key, ip })).status).toBe(302);
    const replay = await postConsent(page, { credential: key, ip });
    expect(replay.status).toBe(400);
    expect(replay.headers.get("location")).toBeNull();
  });
});
