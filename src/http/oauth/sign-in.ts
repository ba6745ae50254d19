/**
 * @module http/oauth/sign-in
 * Proves who is approving an OAuth grant, and later whether that proof still holds. A person
 * signs in with one of their Hippocampus user keys, or, on a single-user deployment, with the
 * OAUTH_PASSPHRASE secret. Grants remember the key id (or a passphrase fingerprint), so revoking
 * the key or rotating the passphrase ends every grant made with it.
 */

import type { ApiKeyStore } from "../../accounts/account-ports";
import { API_KEY_PATTERN, sha256Hex } from "../../accounts/api-key-format";
import type { Config } from "../../config";
import { forgetApiKey } from "../key-cache";
import { type GrantProps, PASSPHRASE_KEY_ID } from "./grant-props";

const MAX_CREDENTIAL_CHARS = 1024;

export interface SignedInIdentity {
  accountId: string;
  userId: string;
  keyId: string;
  passphraseFingerprint?: string;
}

export type SignInProblem = "empty" | "not_a_key" | "unknown_key" | "app_key" | "wrong_passphrase";
export type SignInResult = { ok: true; identity: SignedInIdentity } | { ok: false; problem: SignInProblem };

/** Domain-separated so the fingerprint is useless as a plain SHA-256 of the passphrase. */
function passphraseFingerprint(passphrase: string): Promise<string> {
  return sha256Hex(`hippocampus-oauth-passphrase\n${passphrase}`);
}

/** Compares digests, not the strings, so timing reveals nothing about the secret's content or length. */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const enc = new TextEncoder();
  const [da, db] = await Promise.all([
    crypto.subtle.digest("SHA-256", enc.encode(a)),
    crypto.subtle.digest("SHA-256", enc.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(da, db);
}

async function signInWithKey(keys: ApiKeyStore, key: string): Promise<SignInResult> {
  const row = await keys.findActive(key);
  if (!row) return { ok: false, problem: "unknown_key" };
  // App keys act for many end users; a grant must act as exactly one person.
  if (row.scope === "app" || !row.userId) return { ok: false, problem: "app_key" };
  await keys.touch(row.id, Date.now());
  return { ok: true, identity: { accountId: row.accountId, userId: row.userId, keyId: row.id } };
}

async function signInWithPassphrase(config: Config, presented: string): Promise<SignInResult> {
  if (!config.OAUTH_PASSPHRASE) return { ok: false, problem: "not_a_key" };
  if (!(await sameSecret(presented, config.OAUTH_PASSPHRASE))) return { ok: false, problem: "wrong_passphrase" };
  return {
    ok: true,
    identity: {
      accountId: config.OAUTH_PASSPHRASE_ACCOUNT,
      userId: config.OAUTH_PASSPHRASE_USER,
      keyId: PASSPHRASE_KEY_ID,
      passphraseFingerprint: await passphraseFingerprint(config.OAUTH_PASSPHRASE),
    },
  };
}

/** Checks what the person typed on the authorization page. The credential is never logged. */
export async function signIn(keys: ApiKeyStore, config: Config, presented: string): Promise<SignInResult> {
  const credential = presented.trim();
  if (credential === "") return { ok: false, problem: "empty" };
  if (credential.length > MAX_CREDENTIAL_CHARS) return { ok: false, problem: "not_a_key" };
  if (API_KEY_PATTERN.test(credential)) return signInWithKey(keys, credential);
  return signInWithPassphrase(config, credential);
}

/** Whether the credential a grant was made with still stands: checked on every token use and refresh. */
export async function isCredentialLive(keys: ApiKeyStore, config: Config, props: GrantProps): Promise<boolean> {
  if (props.keyId === PASSPHRASE_KEY_ID) {
    if (!config.OAUTH_PASSPHRASE || !props.passphraseFingerprint) return false;
    const current = await passphraseFingerprint(config.OAUTH_PASSPHRASE);
    return (
      current === props.passphraseFingerprint &&
      config.OAUTH_PASSPHRASE_ACCOUNT === props.accountId &&
      config.OAUTH_PASSPHRASE_USER === props.userId
    );
  }
  const row = await keys.findById(props.keyId);
  // Seen revoked here: this isolate stops trusting its cached copy of the key at once.
  if (row?.revokedAt != null) forgetApiKey(row.id);
  return (
    row !== null &&
    row.revokedAt === null &&
    row.scope === "user" &&
    row.accountId === props.accountId &&
    row.userId === props.userId
  );
}
