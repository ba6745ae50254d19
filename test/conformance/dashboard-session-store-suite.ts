/**
 * One behaviour suite for every DashboardSessionStore adapter (accounts/account-ports.ts): what the
 * dashboard's sign-in, every signed-in page and sign-out rely on. A session is found by its token's
 * hash until it expires, never after; removing it ends it; a new sign-in clears expired sessions.
 * Runner: test/integration/account-stores-conformance.test.ts (D1). The store may hold other
 * sessions: every test uses token hashes of its own.
 */
import { describe, expect, it } from "vitest";
import type { DashboardSessionRecord, DashboardSessionStore } from "../../src/accounts/account-ports";
import { sha256Hex } from "../../src/accounts/api-key-format";

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

const tokenHash = () => sha256Hex(crypto.randomUUID());

function session(over: Partial<DashboardSessionRecord> = {}): DashboardSessionRecord {
  return {
    accountId: "acct-conf",
    userId: "小雅",
    keyId: "key_0123456789abcdef",
    passphraseFingerprint: null,
    csrf: crypto.randomUUID(),
    expiresAt: T0 + 12 * HOUR,
    ...over,
  };
}

export function describeDashboardSessionStore(
  name: string,
  make: () => DashboardSessionStore | Promise<DashboardSessionStore>,
): void {
  describe(`DashboardSessionStore conformance: ${name}`, () => {
    it("finds a session by its token's hash exactly as created, a key's or the passphrase's", async () => {
      const store = await make();
      const [byKey, byPassphrase] = [await tokenHash(), await tokenHash()];
      const keySession = session();
      const passSession = session({ keyId: "passphrase", passphraseFingerprint: "f".repeat(64) });
      await store.create(byKey, keySession, T0);
      await store.create(byPassphrase, passSession, T0);
      expect(await store.find(byKey, T0 + HOUR)).toEqual(keySession);
      expect(await store.find(byPassphrase, T0 + HOUR)).toEqual(passSession);
      expect(await store.find(await tokenHash(), T0 + HOUR)).toBeNull();
    });

    it("finds nothing once the session has expired, at its expiry or after", async () => {
      const store = await make();
      const hash = await tokenHash();
      const s = session({ expiresAt: T0 + HOUR });
      await store.create(hash, s, T0);
      expect(await store.find(hash, T0 + HOUR - 1)).toEqual(s);
      expect(await store.find(hash, T0 + HOUR)).toBeNull();
      expect(await store.find(hash, T0 + 2 * HOUR)).toBeNull();
    });

    it("ends a session on remove and leaves the others", async () => {
      const store = await make();
      const [gone, kept] = [await tokenHash(), await tokenHash()];
      await store.create(gone, session(), T0);
      await store.create(kept, session(), T0);
      await store.remove(gone);
      expect(await store.find(gone, T0)).toBeNull();
      expect(await store.find(kept, T0)).not.toBeNull();
      await store.remove(gone); // twice is harmless
    });

    it("clears sessions already expired when another is created, and keeps live ones", async () => {
      const store = await make();
      const [expired, live, next] = [await tokenHash(), await tokenHash(), await tokenHash()];
      await store.create(expired, session({ expiresAt: T0 + HOUR }), T0);
      await store.create(live, session({ expiresAt: T0 + 10 * HOUR }), T0);
      await store.create(next, session({ expiresAt: T0 + 20 * HOUR }), T0 + 2 * HOUR);
      // Asked as of a time before its expiry: gone, because the later sign-in removed it.
      expect(await store.find(expired, T0)).toBeNull();
      expect(await store.find(live, T0)).not.toBeNull();
    });
  });
}
