/**
 * @module http/oauth/authorize
 * The authorization endpoint: GET shows who asks for what (consent page), POST signs the person
 * in with a user key (or the passphrase) and approves or denies. The library validates the
 * request (client, exact redirect URI, PKCE S256, resource) and owns the consent handle, which
 * is the form's CSRF token: 256 random bits, single use, ten minutes, bound to this browser by a
 * __Host- cookie. POSTs from another origin are refused before anything else.
 */

import {
  AuthorizationError,
  type AuthRequest,
  CimdFetchError,
  type OAuthHelpers,
} from "@cloudflare/workers-oauth-provider";
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { type ConsentLocale, consentMessages, pickLocale } from "./consent-messages";
import { type ConsentView, newNonce, pageHeaders, renderConsentPage, renderErrorPage } from "./consent-page";
import { dropConsentView, loadConsentView, saveConsentView } from "./consent-view-store";
import { type GrantProps, grantMetadata, grantSubject } from "./grant-props";
import { type AccessLevel, offeredLevels, scopesForLevel } from "./oauth-scopes";
import { type OAuthSite, oauthSite } from "./oauth-site";
import { type SignedInIdentity, type SignInProblem, signIn } from "./sign-in";

type FormFields = Record<string, string | File | (string | File)[]>;

function field(form: FormFields, name: string): string {
  const value = form[name];
  return typeof value === "string" ? value : "";
}

export function errorPage(
  locale: ConsentLocale,
  status: number,
  message: string,
  detail?: string,
  extra?: Headers,
): Response {
  const nonce = newNonce();
  return new Response(renderErrorPage(locale, nonce, message, detail), { status, headers: pageHeaders(nonce, extra) });
}

/**
 * The library's advice: redirect only when it validated the redirect URI, otherwise render here.
 * At the "consent" stage an AuthorizationError means the handle expired, was used, or belongs to
 * another browser (a forged or replayed form).
 */
function authorizationFailure(err: unknown, locale: ConsentLocale, stage: "request" | "consent"): Response {
  const m = consentMessages(locale);
  if (err instanceof AuthorizationError && err.redirectTo) return Response.redirect(err.redirectTo, 302);
  if (err instanceof AuthorizationError) {
    return stage === "consent"
      ? errorPage(locale, 400, m.expired)
      : errorPage(locale, 400, m.invalidRequest, err.description);
  }
  if (err instanceof CimdFetchError)
    return errorPage(locale, 400, m.invalidRequest, "the client metadata document could not be verified");
  throw err;
}

function passphraseEnabled(c: Context<AppEnv>): boolean {
  return c.var.config.OAUTH_PASSPHRASE !== undefined;
}

/** A native app's own scheme is the point (cursor://…): show it, not a host that looks like a domain. */
function redirectTarget(redirectUri: string, redirectHost: string): { host: string; native: boolean } {
  if (/^https?:/i.test(redirectUri)) return { host: redirectHost, native: false };
  const url = new URL(redirectUri);
  return { host: url.host ? `${url.protocol}//${url.host}` : `${url.protocol}${url.pathname}`, native: true };
}

async function viewFor(oauth: OAuthHelpers, request: AuthRequest, url: string): Promise<ConsentView> {
  const d = await oauth.describeConsent(request);
  const target = redirectTarget(d.redirectUri, d.redirectHost);
  return {
    clientName: d.clientName,
    clientDomain: d.clientDomain,
    redirectHost: target.host,
    toLocalApp: d.redirectIsLoopback || target.native,
    levels: offeredLevels(request.scope),
    authorizeUrl: url,
  };
}

/** GET /authorize */
export async function showAuthorization(c: Context<AppEnv>): Promise<Response> {
  const locale = pickLocale(c.req.query("lang"), c.req.header("accept-language"));
  const site = oauthSite(c);
  if (!site) return errorPage(locale, 503, consentMessages(locale).unavailable);
  const oauth = site.server.getOAuthApi(c.env);
  let request: AuthRequest;
  let view: ConsentView;
  try {
    request = await oauth.parseAuthRequest(c.req.raw);
    view = await viewFor(oauth, request, c.req.url);
  } catch (err) {
    return authorizationFailure(err, locale, "request");
  }
  const consent = await oauth.beginConsent(request);
  await saveConsentView(c.env.OAUTH_KV!, consent.handle, view);
  const nonce = newNonce();
  const html = renderConsentPage({
    view,
    handle: consent.handle,
    locale,
    passphraseEnabled: passphraseEnabled(c),
    nonce,
  });
  return new Response(html, { status: 200, headers: pageHeaders(nonce, consent.headers) });
}

/** Browsers send Origin (or Sec-Fetch-Site) on form posts; a cross-site one is a forged approval. */
function crossSite(c: Context<AppEnv>, site: OAuthSite): boolean {
  const origin = c.req.header("origin");
  if (origin !== undefined && origin !== "null" && origin !== site.origin) return true;
  return c.req.header("sec-fetch-site") === "cross-site";
}

function rerender(
  c: Context<AppEnv>,
  view: ConsentView,
  handle: string,
  locale: ConsentLocale,
  problem: SignInProblem | "access_invalid",
  selected?: AccessLevel,
): Response {
  const nonce = newNonce();
  const html = renderConsentPage({
    view,
    handle,
    locale,
    passphraseEnabled: passphraseEnabled(c),
    nonce,
    problem,
    selected,
  });
  return new Response(html, { status: problem === "access_invalid" ? 400 : 401, headers: pageHeaders(nonce) });
}

async function approve(
  c: Context<AppEnv>,
  oauth: OAuthHelpers,
  handle: string,
  view: ConsentView,
  identity: SignedInIdentity,
  level: AccessLevel,
): Promise<Response> {
  const scope = scopesForLevel(level);
  const approved = await oauth.approveConsent(c.req.raw, handle, { scope });
  const props: GrantProps = { ...identity, scope, canWrite: level === "write" };
  const { redirectTo } = await oauth.completeAuthorization({
    request: approved.request,
    userId: grantSubject(identity.accountId, identity.userId),
    metadata: grantMetadata(props, level, view.clientName),
    scope,
    props,
    // The library's default revokes every earlier grant of this user and client: re-authorising on one
    // machine would sign the person out on another that shares the client id (a client ID metadata
    // document is one id for every install). Each grant still checks its key on every request.
    revokeExistingGrants: false,
  });
  await dropConsentView(c.env.OAUTH_KV!, handle);
  // An authorised client is never evicted as a registration no one approved (registration-guard.ts).
  await c.var.services().accounts().clientRegistrations.authorized(approved.request.clientId, Date.now());
  approved.headers.set("Location", redirectTo);
  return new Response(null, { status: 302, headers: approved.headers });
}

async function decide(
  c: Context<AppEnv>,
  oauth: OAuthHelpers,
  form: FormFields,
  locale: ConsentLocale,
): Promise<Response> {
  const handle = field(form, "handle");
  if (field(form, "decision") === "deny") {
    const denied = await oauth.denyConsent(c.req.raw, handle);
    await dropConsentView(c.env.OAUTH_KV!, handle);
    return new Response(null, { status: 302, headers: denied.headers });
  }
  const view = await loadConsentView(c.env.OAUTH_KV!, handle);
  if (!view) return errorPage(locale, 400, consentMessages(locale).expired);
  const level = field(form, "access") as AccessLevel;
  if (!view.levels.includes(level)) return rerender(c, view, handle, locale, "access_invalid");
  const result = await signIn(c.var.services().accounts().apiKeys, c.var.config, field(form, "credential"));
  if (!result.ok) return rerender(c, view, handle, locale, result.problem, level);
  return approve(c, oauth, handle, view, result.identity, level);
}

/** POST /authorize */
export async function submitAuthorization(c: Context<AppEnv>): Promise<Response> {
  let locale = pickLocale(c.req.query("lang"), c.req.header("accept-language"));
  const site = oauthSite(c);
  if (!site) return errorPage(locale, 503, consentMessages(locale).unavailable);
  if (crossSite(c, site)) return errorPage(locale, 403, consentMessages(locale).crossSite);
  const form = (await c.req.parseBody()) as FormFields;
  locale = pickLocale(field(form, "lang"), c.req.header("accept-language"));
  try {
    return await decide(c, site.server.getOAuthApi(c.env), form, locale);
  } catch (err) {
    return authorizationFailure(err, locale, "consent");
  }
}
