/**
 * OAuth as a real client does it, inside workerd: the MCP SDK client's OAuthClientProvider (kept in
 * memory), and a "browser" that opens the authorization page, reads its form (consent handle =
 * CSRF token, binding cookie) and posts the person's choice back.
 */

import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import {
  Client,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  SSEClientTransport,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { buildRouteServices } from "../../src/composition";
import { buildApp } from "../../src/http/app";

export const ORIGIN = "http://localhost";
export const REDIRECT_URI = "http://127.0.0.1:53682/callback";

/** A distinct client address per flow, so the per-IP rate limits of one test never touch another. */
export function uniqueIp(): string {
  const b = crypto.getRandomValues(new Uint8Array(3));
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

export class MemoryOAuthProvider implements OAuthClientProvider {
  client?: StoredOAuthClientInformation;
  saved?: StoredOAuthTokens;
  verifier = "";
  authorizationUrl?: URL;

  constructor(
    readonly name = "Hippocampus test client",
    readonly redirect = REDIRECT_URI,
  ) {}

  get redirectUrl(): string {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** What a real client does when the server says its credentials are dead: forget them, sign in again. */
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.client = undefined;
    if (scope === "all" || scope === "verifier") this.verifier = "";
    if (scope === "all" || scope === "discovery") this.discovery = undefined;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  discovery?: OAuthDiscoveryState;
}

export interface BrowserChoice {
  credential: string;
  access?: "read" | "write";
  decision?: "approve" | "deny";
  ip: string;
  acceptLanguage?: string;
}

export interface ConsentPage {
  status: number;
  html: string;
  handle: string;
  cookie: string;
  headers: Headers;
}

type Handler = (request: Request) => Promise<Response>;
const theWorker: Handler = (request) => exports.default.fetch(request);
let handler: Handler = theWorker;

/** Sends the helpers' requests to another handler (an app built with a different env), or back to the worker. */
export function routeRequestsTo(other?: Handler): void {
  handler = other ?? theWorker;
}

/**
 * Sends the helpers' requests to the app built with `env` overridden (another KV, other vars), run in
 * its own execution context as the Worker runs it; `routeRequestsTo()` goes back to the worker.
 */
export function routeRequestsToAppWith(overrides: Partial<Env>): void {
  const app = buildApp({ routeServices: buildRouteServices });
  const patched = { ...env, ...overrides } as Env;
  routeRequestsTo(async (request) => {
    const ctx = createExecutionContext();
    const response = await app.fetch(request, patched, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  });
}

/** What a browser or client on address `ip` sends; Host is set because the MCP handler requires it. */
export function browserFetch(ip: string, extra: Record<string, string> = {}) {
  return (url: string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    request.headers.set("host", "localhost");
    request.headers.set("cf-connecting-ip", ip);
    for (const [k, v] of Object.entries(extra)) request.headers.set(k, v);
    return handler(request);
  };
}

function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

export async function openConsentPage(url: URL | string, ip: string, acceptLanguage = "en"): Promise<ConsentPage> {
  const response = await browserFetch(ip, { "accept-language": acceptLanguage })(url, { redirect: "manual" });
  const html = await response.text();
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? "";
  return { status: response.status, html, handle, cookie: cookiesOf(response), headers: response.headers };
}

export async function postConsent(
  page: Pick<ConsentPage, "handle" | "cookie">,
  choice: BrowserChoice,
  extra: Record<string, string> = {},
): Promise<Response> {
  const form = new URLSearchParams({
    handle: page.handle,
    credential: choice.credential,
    access: choice.access ?? "write",
    decision: choice.decision ?? "approve",
    lang: "en",
  });
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    origin: ORIGIN,
    ...extra,
  };
  if (page.cookie) headers.cookie = page.cookie;
  return browserFetch(choice.ip, headers)(`${ORIGIN}/authorize`, {
    method: "POST",
    body: form.toString(),
    redirect: "manual",
  });
}

/** Opens the page, posts the choice, and returns where the browser is sent (the client's redirect URI). */
export async function approveInBrowser(url: URL, choice: BrowserChoice): Promise<URL> {
  const page = await openConsentPage(url, choice.ip, choice.acceptLanguage);
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${page.html.slice(0, 300)}`);
  const response = await postConsent(page, choice);
  const location = response.headers.get("location");
  if (response.status !== 302 || !location)
    throw new Error(`consent POST answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return new URL(location);
}

type Transport = StreamableHTTPClientTransport | SSEClientTransport;

function transportFor(kind: "mcp" | "sse", provider: MemoryOAuthProvider, ip: string): Transport {
  const fetch = browserFetch(ip);
  return kind === "sse"
    ? new SSEClientTransport(new URL(`${ORIGIN}/sse`), { authProvider: provider, fetch })
    : new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), { authProvider: provider, fetch });
}

/** The whole OAuth flow of an MCP client: 401 → discovery → registration → page → code → tokens → connected. */
export async function connectWithOAuth(
  choice: BrowserChoice,
  opts: { transport?: "mcp" | "sse"; provider?: MemoryOAuthProvider } = {},
) {
  const kind = opts.transport ?? "mcp";
  const provider = opts.provider ?? new MemoryOAuthProvider();
  const first = transportFor(kind, provider, choice.ip);
  const probe = new Client({ name: "hippocampus-oauth-test", version: "1.0.0" });
  const refused = await probe.connect(first).then(
    () => null,
    (err: unknown) => err,
  );
  if (refused === null) throw new Error("connected without signing in");
  // /mcp rejects with UnauthorizedError once the client is sent to the page. The SDK's SSE transport
  // (2.4.0) rejects early, on EventSource's second error event, while its auth flow still runs.
  for (let i = 0; i < 100 && !provider.authorizationUrl; i++) await new Promise((r) => setTimeout(r, 20));
  if (!provider.authorizationUrl)
    throw refused instanceof UnauthorizedError
      ? new Error("the client was never sent to the authorization page")
      : refused;
  const callback = await approveInBrowser(provider.authorizationUrl, choice);
  await first.finishAuth(callback.searchParams);
  const client = new Client({ name: "hippocampus-oauth-test", version: "1.0.0" });
  await client.connect(transportFor(kind, provider, choice.ip));
  return { client, provider, callback };
}

/** A raw token-endpoint call, as a client refreshing its tokens would make it. */
export async function tokenRequest(params: Record<string, string>, ip: string): Promise<Response> {
  return browserFetch(ip)(`${ORIGIN}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params).toString(),
  });
}

export function rawFetch(
  path: string,
  init: RequestInit = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  const request = new Request(`${ORIGIN}${path}`, init);
  request.headers.set("host", "localhost");
  for (const [k, v] of Object.entries(headers)) request.headers.set(k, v);
  return handler(request);
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** PKCE S256 (RFC 7636): a random verifier and its SHA-256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
  );
  return { verifier, challenge };
}

/** Dynamic client registration (RFC 7591) of a public client, as MCP clients do it. */
export async function registerClient(
  ip: string,
  opts: { name?: string; redirectUris?: string[] } = {},
): Promise<{ clientId: string; redirectUri: string }> {
  const redirectUris = opts.redirectUris ?? [REDIRECT_URI];
  const response = await browserFetch(ip)(`${ORIGIN}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: opts.name ?? "Raw test client",
      redirect_uris: redirectUris,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }),
  });
  if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { client_id: string };
  return { clientId: body.client_id, redirectUri: redirectUris[0] };
}

export function authorizeUrl(params: {
  clientId: string;
  redirectUri: string;
  challenge?: string;
  method?: string;
  scope?: string;
  resource?: string;
  state?: string;
  lang?: string;
}): URL {
  const url = new URL(`${ORIGIN}/authorize`);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", params.clientId);
  url.searchParams.set("redirect_uri", params.redirectUri);
  if (params.challenge) {
    url.searchParams.set("code_challenge", params.challenge);
    url.searchParams.set("code_challenge_method", params.method ?? "S256");
  }
  url.searchParams.set("scope", params.scope ?? "memory:read memory:write");
  url.searchParams.set("resource", params.resource ?? `${ORIGIN}/mcp`);
  url.searchParams.set("state", params.state ?? "state-123");
  if (params.lang) url.searchParams.set("lang", params.lang);
  return url;
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  scope: string;
  expires_in: number;
  resource: string;
}

/** Registration, page, approval and code exchange without an MCP client: the grant's raw tokens. */
export async function grantTokens(
  choice: BrowserChoice,
  opts: { resource?: string; scope?: string } = {},
): Promise<Tokens & { clientId: string }> {
  const { clientId, redirectUri } = await registerClient(choice.ip);
  const { verifier, challenge } = await pkcePair();
  const callback = await approveInBrowser(
    authorizeUrl({ clientId, redirectUri, challenge, resource: opts.resource, scope: opts.scope }),
    choice,
  );
  const code = callback.searchParams.get("code");
  if (!code) throw new Error(`no code in ${callback.href}`);
  const response = await tokenRequest(
    { grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier },
    choice.ip,
  );
  if (response.status !== 200) throw new Error(`code exchange answered ${response.status}: ${await response.text()}`);
  return { ...((await response.json()) as Tokens), clientId };
}

/** A JSON-RPC call straight to /mcp with a bearer credential (no MCP client), for status-level checks. */
export function mcpPost(bearer: string, path = "/mcp"): Promise<Response> {
  return rawFetch(path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${bearer}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
}
