/**
 * @module memory/entities/entity-keys
 * How an entity is named for lookup: one key per name or alias, the same whichever way the text
 * or a question writes it ("My Sister", "my sister", "sister" → "sister"; 「我表哥」「表哥」 → 「表哥」),
 * and the entity's id, derived from its name's key so every write path reaches the same row without
 * reading first. The id is a hash: an entity's name (user text) never becomes an identifier.
 */

const SPACES = /\s+/gu;
/** Leading possessives a question or a memory puts before a relation word; one pass, anchored. */
const POSSESSIVE = /^(?:my|our|the|我的|我们的|我们|我)\s*/u;
/** Quotes before a name; quotes and trailing punctuation after it. Stripped by a scan (a `[…]+$` regex is quadratic). */
const LEADING = new Set(`"'“”‘’「」『』《》`);
const TRAILING = new Set(`"'“”‘’「」『』《》.,;:!?，。；：！？、`);
const isSpace = (c: string) => c.trim() === "";

/** `text` without the leading and trailing characters the sets name (and spaces), in one pass from each end. */
function stripEdges(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (LEADING.has(text[start]) || isSpace(text[start]))) start++;
  while (end > start && (TRAILING.has(text[end - 1]) || isSpace(text[end - 1]))) end--;
  return text.slice(start, end);
}

/** The lookup key of a name or alias: NFKC, lower case, single spaces, without a leading possessive. */
export function entityKey(text: string): string {
  const plain = stripEdges(text.normalize("NFKC")).replace(SPACES, " ").trim().toLowerCase();
  const bare = plain.replace(POSSESSIVE, "");
  return bare.length > 0 ? bare : plain;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** The entity's id for a name: `en_` and 20 hex digits of the SHA-256 of its key (80 bits, per owner). */
export async function entityId(name: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(entityKey(name))));
  let hex = "";
  for (let i = 0; i < 10; i++) hex += HEX[digest[i]];
  return `en_${hex}`;
}
