/**
 * @module accounts/api-key-format
 * The one definition of an API key and its `api_keys` row, used by the Worker's auth (through the
 * ApiKeyStore, storage/accounts/d1-api-key-store.ts), the operator CLI (scripts/lib/api-keys.ts)
 * and the test helpers, so a key one of them makes is a key the others accept:
 *   key      = "hc_" + 40 lowercase hex chars (20 random bytes)
 *   key_hash = lowercase hex SHA-256 of the key string (UTF-8); the key itself is never stored
 *   id       = "key_" + 16 lowercase hex chars
 * It imports nothing, so the scripts can load it under plain Node (Web Crypto exists in both).
 */

/** What every key starts with, and how many lowercase hex characters follow (the sign-in pages say it too). */
export const API_KEY_PREFIX = "hc_";
export const API_KEY_HEX_CHARS = 40;
export const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9a-f]{${API_KEY_HEX_CHARS}}$`);

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A new key: its id, the plaintext key (shown once) and the hash that is stored. */
export async function issueApiKey(): Promise<{ id: string; key: string; keyHash: string }> {
  const key = `${API_KEY_PREFIX}${randomHex(API_KEY_HEX_CHARS / 2)}`;
  return { id: `key_${randomHex(8)}`, key, keyHash: await sha256Hex(key) };
}
