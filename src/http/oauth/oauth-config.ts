/**
 * @module http/oauth/oauth-config
 * The OAuth-only settings, parsed once per env with zod like config.ts does for the core vars:
 * the public URL that pins issuer and resources, and the optional single-user passphrase
 * (a wrangler secret) with the account and user it signs in as. A malformed value fails loudly.
 */
import { z } from "zod";

const principalId = z
  .string()
  .regex(/^[A-Za-z0-9_.@:-]{1,128}$/, "must be 1-128 characters of letters, digits, _ . @ : -");

const oauthConfigSchema = z.object({
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "Public origin of this deployment (https://memory.example.com); pins the OAuth issuer. Unset: taken from each request",
    ),
  OAUTH_PASSPHRASE: z
    .string()
    .min(12, "must be at least 12 characters")
    .optional()
    .describe("Secret for a single-user deployment: typed on the authorization page instead of a user key"),
  OAUTH_PASSPHRASE_USER: principalId.default("owner").describe("User the passphrase signs in as"),
  OAUTH_PASSPHRASE_ACCOUNT: principalId.default("default").describe("Account the passphrase signs in as"),
});

export type OAuthConfig = z.infer<typeof oauthConfigSchema>;

const cache = new WeakMap<object, OAuthConfig>();

export function loadOAuthConfig(env: object): OAuthConfig {
  const hit = cache.get(env);
  if (hit) return hit;
  const vars = Object.fromEntries(Object.entries(env).filter(([, v]) => typeof v === "string" && v !== ""));
  const parsed = oauthConfigSchema.safeParse(vars);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // Never echo the value: OAUTH_PASSPHRASE is a secret.
    throw new Error(`Invalid config ${issue.path.join(".")}: ${issue.message}`);
  }
  cache.set(env, parsed.data);
  return parsed.data;
}
