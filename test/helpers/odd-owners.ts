/**
 * Owners whose addresses differ only by characters that are separators, quotes, JSON syntax or SQL
 * elsewhere (a trailing space, `"]`, `:`, brackets, SQL-looking text, CJK): owner isolation tests
 * give each one rows and check that none reaches another's.
 */
import type { Owner } from "../../src/memory/types";
import { uniqueUser } from "./api-keys";

export const ownerOf = (userId: string): Owner => ({ accountId: "default", namespace: "user", userId });

export function oddOwners(prefix: string): Owner[] {
  const base = uniqueUser(prefix);
  return [
    `${base}`,
    `${base} `,
    `${base}"]`,
    `${base}:x`,
    `${base}\\"`,
    `${base}[1,"2"]`,
    `${base}'; DROP TABLE memories_fts; --`,
    `${base}用户ü`,
  ].map(ownerOf);
}

/**
 * Owners with one user id that differ only by namespace or account: a person, two apps' end users,
 * the same person in another account, and namespaces or accounts that look like a prefix or an
 * `app:` namespace of another. A query that forgets the namespace or the account mixes them.
 */
export function collidingOwners(prefix: string): Owner[] {
  const userId = uniqueUser(prefix);
  const account = uniqueUser(`${prefix}-acct`);
  return [
    { accountId: "default", namespace: "user", userId },
    { accountId: "default", namespace: "app:bot-a", userId },
    { accountId: "default", namespace: "app:bot-b", userId },
    { accountId: "default", namespace: "app:bot-a:user", userId },
    { accountId: account, namespace: "user", userId },
    { accountId: account, namespace: "app:bot-a", userId },
    { accountId: `${account}:user`, namespace: "user", userId },
  ];
}
