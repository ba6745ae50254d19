/**
 * @module http/oauth/oauth-scopes
 * The two OAuth scopes and the rules tying them to what a grant may do: `memory:read` lets a
 * client recall and browse, `memory:write` also lets it save, change and delete. Write implies
 * read, since every write tool also returns memories.
 */
export const MEMORY_READ = "memory:read";
export const MEMORY_WRITE = "memory:write";
export const SUPPORTED_SCOPES: readonly string[] = [MEMORY_READ, MEMORY_WRITE];

/** What the person grants on the authorization page. */
export type AccessLevel = "read" | "write";

/**
 * The levels the page offers for a request: never more than the client asked for. A client that
 * names none of our scopes (many send no scope at all) is offered both, write first.
 */
export function offeredLevels(requested: readonly string[]): AccessLevel[] {
  const known = requested.filter((s) => SUPPORTED_SCOPES.includes(s));
  if (known.length === 0 || known.includes(MEMORY_WRITE)) return ["write", "read"];
  return ["read"];
}

export function scopesForLevel(level: AccessLevel): string[] {
  return level === "write" ? [MEMORY_READ, MEMORY_WRITE] : [MEMORY_READ];
}

/** True when a token's scopes allow any access at all. */
export function allowsAccess(scope: readonly string[]): boolean {
  return scope.includes(MEMORY_READ) || scope.includes(MEMORY_WRITE);
}

export function allowsWrite(scope: readonly string[]): boolean {
  return scope.includes(MEMORY_WRITE);
}
