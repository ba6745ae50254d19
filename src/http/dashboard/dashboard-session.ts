/**
 * @module http/dashboard/dashboard-session
 * Dashboard sign-in and sessions. A person signs in with a user key (or, on a single-user
 * deployment, OAUTH_PASSPHRASE) exactly as on the OAuth page (http/oauth/sign-in.ts); app keys are
 * refused — the dashboard shows one person's memory, and an app's end users are not people who
 * hold keys. The session is a random 256-bit token in an HttpOnly, Secure, SameSite=Strict cookie
 * scoped to /dashboard; D1 keeps only its SHA-256 with who signed in, a per-session CSRF token and
 * the expiry (12 h) — nothing is signed, so there is no secret to rotate. Every request re-checks
 * that the key signed in with is still live: revoking the key ends its sessions.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Principal } from "../../access/principal";
import { sha256Hex } from "../../accounts/api-key-format";
import type { AppEnv } from "../app-env";
import { PASSPHRASE_KEY_ID } from "../oauth/grant-props";
import { isCredentialLive, type SignInProblem, signIn } from "../oauth/sign-in";

/**
 * A `__Host-` cookie: the browser accepts it only Secure, with Path=/ and no Domain, so neither a
 * subdomain nor plain http can set or shadow it (http://localhost counts as secure in browsers).
 */
export const SESSION_COOKIE = "__Host-hc_dash";
const SESSION_TTL_MS = 12 * 3600_000;
/** What a `__Host-` cookie requires. */
export const HOST_COOKIE_PATH = "/";

export interface DashSession {
  principal: Principal;
  csrf: string;
  tokenHash: string;
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=/g, ""); // "=" only ever pads the end
}

/** Compares digests, so timing says nothing about the expected token. */
export async function sameToken(a: string, b: string): Promise<boolean> {
  const enc = new TextEncoder();
  const [da, db] = await Promise.all([
    crypto.subtle.digest("SHA-256", enc.encode(a)),
    crypto.subtle.digest("SHA-256", enc.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(da, db);
}

/** Signs in and sets the cookie; the problem otherwise (the credential is never logged). */
export async function startSession(c: Context<AppEnv>, presented: string): Promise<SignInProblem | null> {
  const accounts = c.var.services().accounts();
  const result = await signIn(accounts.apiKeys, c.var.config, presented);
  if (!result.ok) return result.problem;
  const token = randomToken();
  const now = Date.now();
  const { identity } = result;
  await accounts.dashboardSessions.create(
    await sha256Hex(token),
    {
      accountId: identity.accountId,
      userId: identity.userId,
      keyId: identity.keyId,
      passphraseFingerprint: identity.passphraseFingerprint ?? null,
      csrf: randomToken(),
      expiresAt: now + SESSION_TTL_MS,
    },
    now,
  );
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: "Strict",
    path: HOST_COOKIE_PATH,
    maxAge: SESSION_TTL_MS / 1000,
  });
  return null;
}

/** The signed-in session of this request, or null (no cookie, expired, or its key revoked). */
export async function currentSession(c: Context<AppEnv>): Promise<DashSession | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token || token.length > 100) return null;
  const tokenHash = await sha256Hex(token);
  const accounts = c.var.services().accounts();
  const store = accounts.dashboardSessions;
  const row = await store.find(tokenHash, Date.now());
  if (!row) return null;
  const live = await isCredentialLive(accounts.apiKeys, c.var.config, {
    accountId: row.accountId,
    userId: row.userId,
    keyId: row.keyId,
    scope: [],
    canWrite: true,
    ...(row.passphraseFingerprint ? { passphraseFingerprint: row.passphraseFingerprint } : {}),
  });
  if (!live) {
    await store.remove(tokenHash);
    return null;
  }
  const principal: Principal = {
    accountId: row.accountId,
    scope: "user",
    userId: row.userId,
    appName: null,
    keyId: row.keyId === PASSPHRASE_KEY_ID ? "dashboard-passphrase" : row.keyId,
    credential: `dashboard:${tokenHash.slice(0, 16)}`,
    canWrite: true,
  };
  return { principal, csrf: row.csrf, tokenHash };
}

export async function endSession(c: Context<AppEnv>, session: DashSession): Promise<void> {
  await c.var.services().accounts().dashboardSessions.remove(session.tokenHash);
  deleteCookie(c, SESSION_COOKIE, { path: HOST_COOKIE_PATH, secure: true });
}
