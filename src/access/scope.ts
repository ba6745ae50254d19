/**
 * @module access/scope
 * Who a call acts for, the same for every surface (MCP tools over /mcp and /sse, HTTP routes such
 * as /v1/import): user keys act as their own user, app keys must name user_id; the agent comes from
 * the argument or the X-Agent-Id header; a read-only grant may not write.
 */
import { invalidInput, MemoryError } from "../memory/errors";
import { ID_RULE, isPrincipalId, principalIdFromHeader, principalIdSchema } from "../memory/ids";
import { appNamespace, PERSON_NAMESPACE } from "../memory/owner-address";
import type { Scope } from "../memory/types";
import type { CallerContext, Principal } from "./principal";

/** Fields every tool (and /v1/import's query) accepts beside its own: who the call is for. */
export const scopeFields = {
  user_id: principalIdSchema.optional().describe("End user"),
  // The model cannot set headers, so the X-Agent-Id alternative is documented, not listed.
  agent_id: principalIdSchema.optional().describe("Agent"),
};

export interface ScopeArgs {
  user_id?: string;
  agent_id?: string;
  session_id?: string;
}

/** What scope resolution reads: the caller only. */
export interface CallerBound {
  caller: CallerContext;
}

export function resolveScope(ctx: CallerBound, args: ScopeArgs): Scope {
  const { principal, agentHeader, sessionHeader } = ctx.caller;
  let userId: string;
  if (principal.scope === "user") {
    if (args.user_id !== undefined && args.user_id !== principal.userId)
      throw invalidInput("user_id", "not allowed with a user key: the key already names its user");
    userId = principal.userId!;
  } else {
    if (!args.user_id) throw invalidInput("user_id", "required with an app key: name the end user this call is for");
    userId = args.user_id;
  }
  const agentId = args.agent_id ?? agentFromHeader(agentHeader);
  const actor = `key:${principal.keyId}`;
  const sessionKey = args.session_id
    ? `arg:${args.session_id}`
    : sessionHeader
      ? `hdr:${sessionHeader}`
      : `${actor}:${agentId ?? ""}`;
  return { accountId: principal.accountId, namespace: namespaceOf(principal), userId, agentId, actor, sessionKey };
}

/** People act in their account's person namespace; an app's end users in that app's own (DESIGN §8). */
export function namespaceOf(principal: Principal): string {
  if (principal.scope === "user") return PERSON_NAMESPACE;
  if (!principal.appName)
    throw new MemoryError("forbidden", "This app key has no app name; create it with --app <name>");
  return appNamespace(principal.appName);
}

/** X-Agent-Id, percent-decoded (non-ASCII ids travel UTF-8 percent-encoded: headers are byte strings). */
function agentFromHeader(header: string | null): string | undefined {
  if (header === null) return undefined;
  const id = principalIdFromHeader(header);
  if (id === null || !isPrincipalId(id))
    throw invalidInput("X-Agent-Id", `${ID_RULE}; percent-encode non-ASCII ids as UTF-8`);
  return id;
}

export function requireWrite(ctx: CallerBound): void {
  if (!ctx.caller.principal.canWrite)
    throw new MemoryError(
      "forbidden",
      "This grant is read-only (memory:read); saving or changing memories needs memory:write",
    );
}
