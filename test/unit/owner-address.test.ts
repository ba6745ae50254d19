import { describe, expect, it } from "vitest";
import {
  appNamespace,
  ftsOwnerKey,
  ownedKey,
  ownerAddress,
  ownerDigest,
  PERSON_NAMESPACE,
  parseOwnerAddress,
} from "../../src/memory/owner-address";
import type { Owner } from "../../src/memory/types";

const o = (accountId: string, namespace: string, userId: string): Owner => ({ accountId, namespace, userId });

describe("owner address", () => {
  it("is injective where joining with ':' was not", () => {
    const pairs: [Owner, Owner][] = [
      [o("acme", PERSON_NAMESPACE, "x:y"), o("acme:x", PERSON_NAMESPACE, "y")],
      [o("a", appNamespace("b"), "c"), o("a", PERSON_NAMESPACE, "c")],
      [o("a", appNamespace("tg"), "1"), o("a", appNamespace("discord"), "1")],
      [o('a","b', "user", "c"), o("a", 'b","user', "c")],
      [o("a\\", "user", "b"), o("a", "\\user", "b")],
    ];
    for (const [x, y] of pairs) {
      expect(ownerAddress(x)).not.toBe(ownerAddress(y));
      expect(ftsOwnerKey(x)).not.toBe(ftsOwnerKey(y));
      expect(ownedKey(x, "agent", "k")).not.toBe(ownedKey(y, "agent", "k"));
    }
  });

  it("round-trips and rejects what is not an address", () => {
    const owner = o("账户", appNamespace("bot:1"), "用户 ü");
    expect(parseOwnerAddress(ownerAddress(owner))).toEqual(owner);
    expect(parseOwnerAddress("default:alice")).toBeNull();
    expect(parseOwnerAddress('["a","b"]')).toBeNull();
  });

  it("owned keys cannot imitate another owner's key by moving parts", () => {
    expect(ownedKey(o("a", "user", "b"), "c")).not.toBe(ownedKey(o("a", "user", 'b","c')));
  });

  it("digests to 43 base64url characters (under Vectorize's 64 indexed bytes)", async () => {
    const d = await ownerDigest(o("default", PERSON_NAMESPACE, "u".repeat(128)));
    expect(d).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await ownerDigest(o("default", PERSON_NAMESPACE, "u".repeat(128)))).toBe(d);
    expect(await ownerDigest(o("default", PERSON_NAMESPACE, `${"u".repeat(127)}v`))).not.toBe(d);
  });
});
