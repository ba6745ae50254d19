/**
 * One behaviour suite for every ApiKeyStore adapter (accounts/account-ports.ts): what auth, the
 * OAuth and dashboard sign-in, a grant's liveness check and the devices page rely on, whichever store
 * a deployment uses. Keys are found only live and only by their hash, a person lists and revokes only
 * their own user keys, and a key's last use is written at most once per LAST_USED_GRANULARITY_MS.
 * Runner: test/integration/account-stores-conformance.test.ts (D1). `make` may hand back a store
 * that already holds other keys: every test uses keys and owners of its own.
 */
import { describe, expect, it } from "vitest";
import { type ApiKeyRecord, type ApiKeyStore, LAST_USED_GRANULARITY_MS } from "../../src/accounts/account-ports";
import { issueApiKey } from "../../src/accounts/api-key-format";

let n = 0;
/** An owner no other test uses. */
function person(): { accountId: string; userId: string } {
  n++;
  return { accountId: `acct-${crypto.randomUUID().slice(0, 8)}`, userId: `person-${n}` };
}

async function newKey(
  store: ApiKeyStore,
  owner: { accountId: string; userId?: string; appName?: string },
  createdAt = 1_700_000_000_000,
): Promise<{ key: string; record: ApiKeyRecord }> {
  const { id, key, keyHash } = await issueApiKey();
  const record: ApiKeyRecord = {
    id,
    keyHash,
    accountId: owner.accountId,
    userId: owner.userId ?? null,
    appName: owner.appName ?? null,
    scope: owner.appName ? "app" : "user",
    label: owner.appName ? "an app" : "我的笔记本 laptop",
    createdAt,
    lastUsedAt: null,
    revokedAt: null,
  };
  await store.insert(record);
  return { key, record };
}

export function describeApiKeyStore(name: string, make: () => ApiKeyStore | Promise<ApiKeyStore>): void {
  describe(`ApiKeyStore conformance: ${name}`, () => {
    it("finds a live key by the key, by its hash and by id, exactly as stored", async () => {
      const store = await make();
      const { key, record } = await newKey(store, person());
      expect(await store.findActive(key)).toEqual(record);
      expect(await store.findActiveByHash(record.keyHash)).toEqual(record);
      expect(await store.findById(record.id)).toEqual(record);
    });

    it("finds nothing for an unknown key, a string that is not a key, or another key's hash", async () => {
      const store = await make();
      const { key, record } = await newKey(store, person());
      const unknown = await issueApiKey();
      expect(await store.findActive(unknown.key)).toBeNull();
      expect(await store.findActiveByHash(unknown.keyHash)).toBeNull();
      expect(await store.findById(unknown.id)).toBeNull();
      // The stored hash presented as if it were the key, the key in capitals, the key cut short.
      for (const notAKey of [record.keyHash, key.toUpperCase(), key.slice(0, -1), "", `${key} `]) {
        expect(await store.findActive(notAKey)).toBeNull();
      }
    });

    it("never finds a revoked key as live, but still by id with the time it was revoked", async () => {
      const store = await make();
      const owner = person();
      const { key, record } = await newKey(store, owner);
      const revoked = await store.revokeForUser(record.id, owner.accountId, owner.userId, 1_700_000_100_000);
      expect(revoked).toEqual({ ...record, revokedAt: 1_700_000_100_000 });
      expect(await store.findActive(key)).toBeNull();
      expect(await store.findActiveByHash(record.keyHash)).toBeNull();
      expect(await store.findById(record.id)).toEqual(revoked);
    });

    it("records a key's last use at most once per granularity", async () => {
      const store = await make();
      const { record } = await newKey(store, person());
      const t0 = 1_700_000_000_000;
      await store.touch(record.id, t0);
      expect((await store.findById(record.id))?.lastUsedAt).toBe(t0);
      await store.touch(record.id, t0 + LAST_USED_GRANULARITY_MS - 1);
      expect((await store.findById(record.id))?.lastUsedAt).toBe(t0);
      await store.touch(record.id, t0 + LAST_USED_GRANULARITY_MS + 1);
      expect((await store.findById(record.id))?.lastUsedAt).toBe(t0 + LAST_USED_GRANULARITY_MS + 1);
      // Touching an unknown id writes nothing and does not fail.
      await store.touch((await issueApiKey()).id, t0);
    });

    it("lists a person's own user keys only, newest first, revoked ones included", async () => {
      const store = await make();
      const me = person();
      const older = await newKey(store, me, 1_700_000_000_000);
      const newer = await newKey(store, me, 1_700_000_500_000);
      await newKey(store, { accountId: me.accountId, userId: `${me.userId}-sibling` });
      await newKey(store, { accountId: `${me.accountId}-other`, userId: me.userId });
      // An app key, even one whose row names the person (the table allows it), is not a device of theirs.
      await newKey(store, { accountId: me.accountId, userId: me.userId, appName: "demo" });
      await store.revokeForUser(older.record.id, me.accountId, me.userId, 1_700_000_600_000);
      const listed = await store.listForUser(me.accountId, me.userId);
      expect(listed.map((k) => k.id)).toEqual([newer.record.id, older.record.id]);
      expect(listed[1].revokedAt).toBe(1_700_000_600_000);
      expect(await store.listForUser(me.accountId, "nobody-here")).toEqual([]);
    });

    it("revokes only the person's own user key: another person's, another account's or an app key's id changes nothing", async () => {
      const store = await make();
      const me = person();
      const theirs = await newKey(store, person());
      const sameUserOtherAccount = await newKey(store, { accountId: `${me.accountId}-other`, userId: me.userId });
      const app = await newKey(store, { accountId: me.accountId, userId: me.userId, appName: "demo" });
      for (const victim of [theirs, sameUserOtherAccount, app]) {
        expect(await store.revokeForUser(victim.record.id, me.accountId, me.userId, 1_700_000_100_000)).toBeNull();
        expect(await store.findActive(victim.key)).toEqual(victim.record);
      }
    });

    it("keeps the first revocation's time when a key is revoked twice", async () => {
      const store = await make();
      const me = person();
      const { record } = await newKey(store, me);
      await store.revokeForUser(record.id, me.accountId, me.userId, 1_700_000_100_000);
      const again = await store.revokeForUser(record.id, me.accountId, me.userId, 1_700_000_900_000);
      expect(again?.revokedAt).toBe(1_700_000_100_000);
    });
  });
}
