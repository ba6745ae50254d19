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
