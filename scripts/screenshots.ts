/**
 * @module scripts/screenshots
 * `npm run screenshots [-- --base <url>]`: headless Chromium screenshots of the OAuth
 * authorization page in English and Chinese, saved as docs/oauth-consent-en.png and -zh.png.
 * Without --base it starts `npm run dev` on a free 127.0.0.1 port and stops it (its whole process
 * group) afterwards. It registers a demo client the way Claude.ai does (dynamic registration) and
 * opens the page that client would send a person to. Needs a Chromium binary (Debian: apt-get
 * install chromium fonts-noto-cjk; or CHROMIUM_PATH); CI does not run this.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const DEMO_CLIENT = { name: "Claude", redirect: "https://claude.ai/api/mcp/auth_callback" };
const LOCALES = ["en", "zh"] as const;

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** Starts `npm run dev` in its own process group; echoes only a freshly created API key line, so it is not lost. */
function startDev(port: number): { child: ChildProcess; output: string[] } {
  const child = spawn("npm", ["run", "dev", "--", "--port", String(port)], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    output.push(text);
    for (const line of text.split("\n"))
      if (/API key/.test(line) && /hc_[0-9a-f]{40}/.test(line)) console.log(line.trim());
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  return { child, output };
}

function stopDev(child: ChildProcess): void {
  // wrangler and workerd are children of npm: signal the whole group, not just npm.
  if (child.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  }
}

async function waitForHealth(base: string, child: ChildProcess | null): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (child && child.exitCode !== null) throw new Error("npm run dev exited before the server answered");
    try {
      if ((await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      /* not listening yet */
    }
    await sleep(500);
  }
  throw new Error(`${base}/health did not answer within two minutes`);
}

/** What an MCP client does before sending a person to the page: register, then make a PKCE challenge. */
async function authorizationUrl(base: string): Promise<URL> {
  const registered = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: DEMO_CLIENT.name,
      redirect_uris: [DEMO_CLIENT.redirect],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  if (registered.status !== 201)
    throw new Error(`client registration answered ${registered.status}: ${await registered.text()}`);
  const { client_id } = (await registered.json()) as { client_id: string };
  const challenge = createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url");
  const url = new URL(`${base}/authorize`);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id,
    redirect_uri: DEMO_CLIENT.redirect,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "memory:read memory:write",
    resource: `${base}/mcp`,
    state: "screenshot",
  }))
    url.searchParams.set(k, v);
  return url;
}

async function capture(base: string): Promise<void> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_FLAGS,
  });
  try {
    for (const locale of LOCALES) {
      const page = await browser.newPage({
        viewport: { width: 760, height: 720 },
        locale: locale === "zh" ? "zh-CN" : "en-US",
      });
      const url = await authorizationUrl(base);
      url.searchParams.set("lang", locale);
      const response = await page.goto(url.href);
      if (response?.status() !== 200) throw new Error(`the authorization page answered ${response?.status()}`);
      const path = resolve("docs", `oauth-consent-${locale}.png`);
      await page.screenshot({ path, fullPage: true });
      console.log(`screenshots: saved ${path}`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { base: { type: "string" } }, strict: true });
  let dev: { child: ChildProcess; output: string[] } | null = null;
  let base = values.base?.replace(/\/$/, "");
  if (!base) {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    console.log(`screenshots: starting npm run dev on ${base} ...`);
    dev = startDev(port);
  }
  try {
    await waitForHealth(base, dev?.child ?? null);
    await capture(base);
  } catch (err) {
    if (dev) console.error(dev.output.join("").split("\n").slice(-20).join("\n"));
    throw err;
  } finally {
    if (dev) stopDev(dev.child);
  }
}

main().catch((err) => {
  console.error(`screenshots: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
