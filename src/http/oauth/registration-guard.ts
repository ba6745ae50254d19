/**
 * @module http/oauth/registration-guard
 * Dynamic client registration (RFC 7591) checked before the OAuth library stores a client: every
 * metadata field is bounded in length (the consent page and the dashboard show client_name; nothing
 * stored may be a megabyte of text), what a person reads has no control characters, and one client
 * address (CF-Connecting-IP) registers at most `perAddressPerDay` clients a UTC day, counted in D1
 * (storage/d1-client-registrations.ts: one atomic check-and-count; a registration the OAuth library
 * refuses is not counted). Requests without CF-Connecting-IP (local runs) are not counted. Answers
 * in the RFC 7591 error shape (invalid_client_metadata naming the field and the rule).
 */
import type { Context, MiddlewareHandler } from "hono";
import { isSafeLabel, LABEL_RULE } from "../../memory/limits";
import { D1ClientRegistrations } from "../../storage/accounts/d1-client-registrations";
import type { AppEnv } from "../app-env";

export const REGISTRATION_LIMITS = {
  clientNameMaxChars: 100,
  uriMaxChars: 512,
  redirectUrisMax: 10,
  contactsMax: 5,
  /** Any other text field (scope, software_id, token_endpoint_auth_method, …). */
  textMaxChars: 512,
  /** Any other list (grant_types, response_types, …). */
  listMax: 10,
  perAddressPerDay: 20,
} as const;

const URI_FIELDS = new Set(["client_uri", "logo_uri", "tos_uri", "policy_uri", "jwks_uri", "initiate_login_uri"]);
const DAY_MS = 86_400_000;
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

const oauthError = (c: Context<AppEnv>, status: 400 | 429, error: string, description: string) =>
  c.json({ error, error_description: description }, status, { "Cache-Control": "no-store" });

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Seconds until the next UTC day, when the address has places again. */
const secondsToTomorrow = (now: number): number => Math.ceil((DAY_MS - (now % DAY_MS)) / 1000);

function tooManyToday(c: Context<AppEnv>, now: number): Response {
  const response = oauthError(
    c,
    429,
    "temporarily_unavailable",
    `This address registered ${L.perAddressPerDay} clients today, the most one address may; reuse a registered client or retry tomorrow (UTC)`,
  );
  response.headers.set("Retry-After", String(secondsToTomorrow(now)));
  return response;
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
  const ip = c.req.header("cf-connecting-ip");
  if (!ip) return next();
  const now = Date.now();
  const day = utcDay(now);
  const counts = new D1ClientRegistrations(c.env.DB);
  if (!(await counts.take(ip, day, utcDay(now - DAY_MS), L.perAddressPerDay))) return tooManyToday(c, now);
  try {
    await next();
  } finally {
    // Only a client the library stored counts: a refused or failed registration gives its place back.
    if (!c.res || c.res.status !== 201) await counts.giveBack(ip, day);
  }
};
