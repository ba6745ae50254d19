/**
 * @module http/oauth/registration-guard
 * Dynamic client registration (RFC 7591) checked before the OAuth library stores a client: every
 * metadata field is bounded in length (the consent page and the dashboard show client_name; nothing
 * stored may be a megabyte of text) and what a person reads has no control characters; answers in
 * the RFC 7591 error shape (invalid_client_metadata naming the field and the rule). How many clients
 * are kept is bounded by eviction, never by refusing an address: ChatGPT and Claude register from
 * their own servers for everyone behind them, so a per-address cap would lock out a whole family or
 * team. Before each registration, clients never authorised within a day go, and so do the oldest
 * never-authorised ones past `pendingMax` (the ClientRegistrationStore records each stored
 * client and its first authorisation); a person's authorised clients are never evicted. The edge's
 * per-address rate limit (rate-limit.ts, an IPv6 client by its /64) still slows a flood.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { ClientRegistrationStore } from "../../accounts/account-ports";
import { consoleLogger } from "../../console-logger";
import { isSafeLabel, LABEL_RULE } from "../../memory/limits";
import type { AppEnv } from "../app-env";
import { oauthSite } from "./oauth-site";

export const REGISTRATION_LIMITS = {
  clientNameMaxChars: 100,
  uriMaxChars: 512,
  redirectUrisMax: 10,
  contactsMax: 5,
  /** Any other text field (scope, software_id, token_endpoint_auth_method, …). */
  textMaxChars: 512,
  /** Any other list (grant_types, response_types, …). */
  listMax: 10,
  /** Clients never authorised held at once; past it, the oldest make room for the next registration. */
  pendingMax: 1000,
  /** How long a registered client may wait for a person's approval before a later registration evicts it. */
  pendingMs: 86_400_000,
  /** Clients one registration evicts at most (each a KV delete): more than the one it adds. */
  evictPerRegistration: 10,
} as const;

const URI_FIELDS = new Set(["client_uri", "logo_uri", "tos_uri", "policy_uri", "jwks_uri", "initiate_login_uri"]);
const L = REGISTRATION_LIMITS;

function textProblem(field: string, value: string): string | null {
  const max = field === "client_name" ? L.clientNameMaxChars : URI_FIELDS.has(field) ? L.uriMaxChars : L.textMaxChars;
  if ([...value].length > max) return `${field}: must be at most ${max} characters`;
  if (!isSafeLabel(value)) return `${field}: ${LABEL_RULE}`;
  return null;
}

function listProblem(field: string, values: unknown[]): string | null {
  const max = field === "redirect_uris" ? L.redirectUrisMax : field === "contacts" ? L.contactsMax : L.listMax;
  if (values.length > max) return `${field}: at most ${max} entries`;
  for (const v of values) {
    if (typeof v !== "string") continue; // the library checks types
    const max = field === "redirect_uris" ? L.uriMaxChars : L.textMaxChars;
    if ([...v].length > max) return `${field}: each must be at most ${max} characters`;
    if (!isSafeLabel(v)) return `${field}: ${LABEL_RULE}`;
  }
  return null;
}

/** The first problem with the metadata, as `field: rule`; null when every field is within bounds. */
export function registrationProblem(metadata: Record<string, unknown>): string | null {
  for (const [field, value] of Object.entries(metadata)) {
    const problem =
      typeof value === "string"
        ? textProblem(field, value)
        : Array.isArray(value)
          ? listProblem(field, value)
          : value !== null && typeof value === "object"
            ? `${field}: must not be an object`
            : null;
    if (problem) return problem;
  }
  return null;
}

const oauthError = (c: Context<AppEnv>, status: 400, error: string, description: string) =>
  c.json({ error, error_description: description }, status, { "Cache-Control": "no-store" });

/**
 * Evicts clients never authorised within a day, and the oldest never-authorised ones past
 * `pendingMax` (room for one more): their rows first (only rows still unauthorised), then the OAuth
 * library's records. A failure leaves them for the next registration; it never refuses this one.
 */
async function evictPending(c: Context<AppEnv>, registry: ClientRegistrationStore, now: number): Promise<void> {
  const site = oauthSite(c);
  if (!site) return;
  try {
    const candidates = await registry.evictable(now - L.pendingMs, L.pendingMax - 1, L.evictPerRegistration);
    const forgotten = await registry.forget(candidates);
    const oauth = site.server.getOAuthApi(c.env);
    for (const id of forgotten) await oauth.deleteClient(id);
  } catch (err) {
    consoleLogger.warn("pending OAuth clients not evicted; the next registration tries again", {
      error: err instanceof Error ? err.name : "unknown",
    });
  }
}

/** The client_id of a registration the library answered 201, or null. */
async function registeredClientId(res: Response | undefined): Promise<string | null> {
  if (!res || res.status !== 201) return null;
  try {
    const body = (await res.clone().json()) as { client_id?: unknown };
    return typeof body.client_id === "string" ? body.client_id : null;
  } catch {
    return null;
  }
}

export const guardRegistration: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "POST") return next();
  let metadata: unknown;
  try {
    metadata = JSON.parse(await c.req.raw.clone().text());
  } catch {
    return next(); // the library answers malformed JSON itself
  }
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) return next();
  const problem = registrationProblem(metadata as Record<string, unknown>);
  if (problem) return oauthError(c, 400, "invalid_client_metadata", problem);
  const registry = c.var.services().accounts().clientRegistrations;
  const now = Date.now();
  await evictPending(c, registry, now);
  await next();
  const clientId = await registeredClientId(c.res);
  if (clientId) await registry.registered(clientId, now);
};
