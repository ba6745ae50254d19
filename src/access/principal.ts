/**
 * @module access/principal
 * Who is calling, as established by http/auth.ts from an API key or an OAuth access token: the
 * account, the user for user-scoped credentials, the app name for app-scoped keys, and what they may
 * do. Transport-neutral, so the MCP tools and the HTTP routes read the same shape.
 */
export interface Principal {
  accountId: string;
  scope: "user" | "app";
  /** Set for user-scoped credentials; app keys pass user_id per call. */
  userId: string | null;
  appName: string | null;
  keyId: string;
  /**
   * The credential itself, for binding state to it (a legacy SSE session): `key:<api key id>` or
   * `grant:<OAuth grant id>`. Two keys of one user, or two grants made with one key, differ.
   */
  credential: string;
  /** False for read-only OAuth grants (memory:read without memory:write). */
  canWrite: boolean;
}

/** Request facts the memory calls need beside the principal. */
export interface CallerContext {
  principal: Principal;
  agentHeader: string | null;
  sessionHeader: string | null;
  /** The origin the request came to (links back to this deployment when PUBLIC_URL is unset). */
  origin?: string;
}
