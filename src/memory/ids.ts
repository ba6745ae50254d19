/**
 * @module memory/ids
 * The one rule for caller-chosen ids — user, agent, account and app names — wherever they come in:
 * tool arguments and the X-Agent-Id header (access/scope.ts), /v1/import, OAuth settings
 * (config.ts), the operator scripts (scripts/lib/wrangler-d1.ts) and the benchmark's users
 * (scripts/lib/bench-users.ts): letters and digits of any script plus `_ . @ : -`, NFC-normalised,
 * 1-128 characters, so 「繁星的id」 is an id and a control or separator character never is. It
 * imports only zod, so the scripts can load it under plain Node.
 *
 * HTTP header values are byte strings, so a non-ASCII agent id travels in X-Agent-Id
 * percent-encoded as UTF-8 (`encodeURIComponent`): `%` is not an id character, so a value with
 * `%` is always an encoded one and decoding is unambiguous.
 */
import { z } from "zod";

export const ID_MAX_CHARS = 128;

/** Letters (with their combining marks) and digits of any script, and `_ . @ : -`. Linear time. */
const ID_CHARACTERS = /^[\p{L}\p{M}\p{N}_.@:-]+$/u;

export const ID_RULE = `must be 1-${ID_MAX_CHARS} letters or digits (any script) or _ . @ : -`;

/** The stored form of an id: NFC, so the same name typed on two keyboards names the same owner. */
export function normalizePrincipalId(value: string): string {
  return value.normalize("NFC");
}

/** True when `value` (already normalised) is a valid id. */
export function isPrincipalId(value: string): boolean {
  const length = [...value].length;
  return length >= 1 && length <= ID_MAX_CHARS && ID_CHARACTERS.test(value);
}

/** The id a header carries: percent-decoded when it contains `%`, then normalised; null when malformed. */
export function principalIdFromHeader(value: string): string | null {
  let decoded = value;
  if (value.includes("%")) {
    try {
      decoded = decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return normalizePrincipalId(decoded);
}

/** How to send an id in a header (the inverse of principalIdFromHeader). */
export function principalIdForHeader(id: string): string {
  return encodeURIComponent(normalizePrincipalId(id));
}

/**
 * An id as zod takes it: NFC first, then checked. Listed as a string of at most 128 characters; the
 * rule itself is too long a regular expression for every tools/list.
 */
export const principalIdSchema = z
  .string()
  .normalize("NFC")
  .refine(isPrincipalId, ID_RULE)
  .meta({ maxLength: ID_MAX_CHARS });
