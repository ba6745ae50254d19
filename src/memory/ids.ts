/**
 * @module memory/ids
 * The one rule for caller-chosen ids — user, agent, account and app names — wherever they come in:
 * tool arguments and headers (access/scope.ts), OAuth settings (config.ts), the operator scripts
 * (scripts/lib/wrangler-d1.ts) and the benchmark's generated users. It imports nothing, so the
 * scripts can load it under plain Node.
 */

/** The characters an id may use (a regex character-class body). */
export const ID_CHARS = "A-Za-z0-9_.@:-";

export const ID_MAX_CHARS = 128;

/** A whole id: 1 to ID_MAX_CHARS of ID_CHARS. Linear-time (one class, bounded). */
export const ID_PATTERN = new RegExp(`^[${ID_CHARS}]{1,${ID_MAX_CHARS}}$`);

/** The rule in words, for error messages that name it. */
export const ID_RULE = `must be 1-${ID_MAX_CHARS} characters of letters, digits, _ . @ : -`;

/** Every character an id may not use, to turn free text (a sample name) into an id. */
export const ID_DISALLOWED_CHARS = new RegExp(`[^${ID_CHARS}]`, "g");
