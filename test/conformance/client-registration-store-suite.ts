/**
 * One behaviour suite for every ClientRegistrationStore adapter (accounts/account-ports.ts): what
 * the registration guard's eviction and the consent page's approval rely on. Only clients no person
 * has approved are ever evictable or forgotten; stale ones and the oldest past `keep` are offered,
 * at most `limit`; a client approved between reading and forgetting is not forgotten.
 * Runner: test/integration/account-stores-conformance.test.ts (D1). `make` hands back an EMPTY
 * store: eviction looks at every registration, not one owner's.
 */
import { describe, expect, it } from "vitest";
import type { ClientRegistrationStore } from "../../src/accounts/account-ports";

const T0 = 1_700_000_000_000;
const DAY = 86_400_000;

const sorted = (ids: string[]) => [...ids].sort();

export function describeClientRegistrationStore(
  name: string,
  make: () => ClientRegistrationStore | Promise<ClientRegistrationStore>,
): void {
  describe(`ClientRegistrationStore conformance: ${name}`, () => {
    it("offers clients never approved that registered before the cut-off, and never an approved one", async () => {
      const store = await make();
      await store.registered("stale", T0);
      await store.registered("stale-approved", T0 + 1);
      await store.registered("fresh", T0 + 2 * DAY);
      await store.authorized("stale-approved", T0 + 2);
      expect(await store.evictable(T0 + DAY, 1000, 10)).toEqual(["stale"]);
    });

    it("offers the oldest never-approved clients beyond the newest `keep`, approved ones not counted", async () => {
      const store = await make();
      for (let i = 0; i < 5; i++) await store.registered(`c${i}`, T0 + i);
      await store.registered("approved", T0 + 10);
      await store.authorized("approved", T0 + 11);
      expect(sorted(await store.evictable(0, 3, 10))).toEqual(["c0", "c1"]);
      expect(await store.evictable(0, 5, 10)).toEqual([]);
    });

    it("offers at most `limit` clients, stale ones first", async () => {
      const store = await make();
      for (let i = 0; i < 6; i++) await store.registered(`c${i}`, T0 + i);
      const offered = await store.evictable(T0 + 2, 0, 3);
      expect(offered).toHaveLength(3);
      expect(offered.slice(0, 2)).toEqual(["c0", "c1"]);
      expect(new Set(offered).size).toBe(3);
    });

    it("keeps a client's first registration time when it registers again", async () => {
      const store = await make();
      await store.registered("again", T0);
      await store.registered("again", T0 + 5 * DAY);
      expect(await store.evictable(T0 + DAY, 1000, 10)).toEqual(["again"]);
    });

    it("forgets only clients still never approved, and answers exactly those", async () => {
      const store = await make();
      await store.registered("pending", T0);
      await store.registered("approved-meanwhile", T0);
      const offered = await store.evictable(T0 + DAY, 1000, 10);
      expect(sorted(offered)).toEqual(["approved-meanwhile", "pending"]);
      await store.authorized("approved-meanwhile", T0 + 1);
      expect(await store.forget([...offered, "never-registered"])).toEqual(["pending"]);
      expect(await store.forget([])).toEqual([]);
      expect(await store.evictable(T0 + DAY, 0, 10)).toEqual([]);
      // The approved client is still held: forgetting it again changes nothing.
      expect(await store.forget(["approved-meanwhile"])).toEqual([]);
    });
  });
}
