/**
 * @module http/oauth/grant-props
 * What an OAuth grant carries. `props` are encrypted by the OAuth library and come back with
 * every access token; `metadata` is stored in the clear beside the grant so operators can list
 * and revoke grants (`npm run keys -- grants`). zod is the single source of truth for both.
 */
import { z } from "zod";
import type { AccessLevel } from "./oauth-scopes";

export const PASSPHRASE_KEY_ID = "passphrase";

export const grantPropsSchema = z.object({
  accountId: z.string().min(1).describe("Account the grant acts in"),
  userId: z.string().min(1).describe("User the grant acts as"),
  scope: z.array(z.string()).describe("Scopes the person granted on the authorization page"),
  keyId: z.string().min(1).describe(`Id of the user key the person signed in with, or "${PASSPHRASE_KEY_ID}"`),
  canWrite: z.boolean().describe("True when memory:write was granted"),
  passphraseFingerprint: z
    .string()
    .optional()
    .describe(
      "SHA-256 of the passphrase signed in with (passphrase grants only): rotating the secret ends these grants",
    ),
});
export type GrantProps = z.infer<typeof grantPropsSchema>;

export const grantMetadataSchema = z.object({
  keyId: z.string().describe("Same as props.keyId: lets the CLI revoke every grant made with a key"),
  accountId: z.string().describe("Account the grant acts in"),
  userId: z.string().describe("User the grant acts as"),
  access: z.enum(["read", "write"]).describe("read = memory:read; write = memory:read memory:write"),
  clientName: z.string().describe("Client name as shown on the authorization page (self-asserted by the client)"),
});
export type GrantMetadata = z.infer<typeof grantMetadataSchema>;

/**
 * The library's grant subject. It must not contain ":" (it separates the parts of tokens and KV
 * keys) while our ids may, so each part is URI-encoded and joined with "/", which stays reversible.
 */
export function grantSubject(accountId: string, userId: string): string {
  return `${encodeURIComponent(accountId)}/${encodeURIComponent(userId)}`;
}

export function grantMetadata(props: GrantProps, level: AccessLevel, clientName: string): GrantMetadata {
  return {
    keyId: props.keyId,
    accountId: props.accountId,
    userId: props.userId,
    access: level,
    clientName: clientName.slice(0, 200),
  };
}
