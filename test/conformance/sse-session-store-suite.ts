/**
 * One behaviour suite for every SseSessionStore adapter (accounts/account-ports.ts): what the legacy
 * /sse binding relies on. A session id is bound only to the credential it was issued to, and only
 * for maxAgeMs; issuing prunes sessions past that age.
 * Runner: test/integration/account-stores-conformance.test.ts (D1). The store may hold other
 * sessions: every test uses ids and credentials of its own.
 */
import { describe, expect, it } from "vitest";
import type { SseSessionStore } from "../../src/accounts/account-ports";

const T0 = 1_700_000_000_000;
const MAX_AGE = 24 * 3_600_000;

const id = () => crypto.randomUUID().replaceAll("-", "");

export function describeSseSessionStore(name: string, make: () => SseSessionStore | Promise<SseSessionStore>): void {
  describe(`SseSessionStore conformance: ${name}`, () => {
    it("binds a session to the credential that opened it, and to no other", async () => {
      const store = await make();
      const [session, other] = [id(), id()];
      await store.issue(session, "key:key_aaaaaaaaaaaaaaaa", T0, MAX_AGE);
      await store.issue(other, "grant:g2", T0, MAX_AGE);
      expect(await store.isBound(session, "key:key_aaaaaaaaaaaaaaaa", T0 + 1, MAX_AGE)).toBe(true);
      expect(await store.isBound(session, "grant:g2", T0 + 1, MAX_AGE)).toBe(false);
      expect(await store.isBound(other, "key:key_aaaaaaaaaaaaaaaa", T0 + 1, MAX_AGE)).toBe(false);
      expect(await store.isBound(id(), "key:key_aaaaaaaaaaaaaaaa", T0 + 1, MAX_AGE)).toBe(false);
    });

    it("binds a session for maxAgeMs and no longer", async () => {
      const store = await make();
      const session = id();
      await store.issue(session, "grant:g1", T0, MAX_AGE);
      expect(await store.isBound(session, "grant:g1", T0 + MAX_AGE, MAX_AGE)).toBe(true);
      expect(await store.isBound(session, "grant:g1", T0 + MAX_AGE + 1, MAX_AGE)).toBe(false);
    });

    it("prunes sessions past maxAgeMs when it issues another", async () => {
      const store = await make();
      const [old, fresh] = [id(), id()];
      // Issued long before every other test's sessions, so this prune reaches it first.
      await store.issue(old, "grant:old", 1_000, 1_000);
      await store.issue(fresh, "grant:fresh", 5_000, 1_000);
      // Asked as of a time it was still young: gone, because the later issue pruned it.
      expect(await store.isBound(old, "grant:old", 1_500, 1_000)).toBe(false);
      expect(await store.isBound(fresh, "grant:fresh", 5_500, 1_000)).toBe(true);
    });
  });
}
