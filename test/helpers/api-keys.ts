/** Creates API keys straight in the test D1 with the same issueApiKey() the keys CLI uses. */
import { env } from "cloudflare:workers";
import { issueApiKey } from "../../src/accounts/api-key-format";

let counter = 0;

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function createKey(opts: {
  user?: string;
  app?: string;
  account?: string;
}): Promise<{ key: string; id: string }> {
  const { id, key, keyHash } = await issueApiKey();
  counter++;
  await env.DB.prepare(
    "INSERT INTO api_keys (id, key_hash, account_id, user_id, app_name, scope, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(
      id,
      keyHash,
      opts.account ?? "default",
      opts.user ?? null,
      opts.app ?? null,
      opts.app ? "app" : "user",
      `test-${counter}`,
      Date.now(),
    )
    .run();
  return { key, id };
}

export async function revokeKey(id: string): Promise<void> {
  await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(Date.now(), id).run();
}

/** A unique user id per test so tests sharing one D1 never see each other's memories. */
export function uniqueUser(prefix = "u"): string {
  return `${prefix}-${randomHex(6)}`;
}
