/**
 * @module http/principal
 * Who is calling, as established by auth (API key today, OAuth grant later): the account, the
 * user for user-scoped credentials, the app name for app-scoped keys, and what they may do.
 */
export interface Principal {
  accountId: string;
  scope: "user" | "app";
  /** Set for user-scoped credentials; app keys pass user_id per call. */
  userId: string | null;
  appName: string | null;
  keyId: string;
  /** False for read-only OAuth grants (memory:read without memory:write). */
  canWrite: boolean;
}

/** Request facts the MCP layer needs beside the principal. */
export interface CallerContext {
  principal: Principal;
  agentHeader: string | null;
  sessionHeader: string | null;
}
