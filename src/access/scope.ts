/**
 * @module access/scope
 * Who a call acts for, the same for every surface (MCP tools over /mcp and /sse, HTTP routes such
 * as /v1/import): user keys act as their own user, app keys must name user_id; the agent comes from
 * the argument or the X-Agent-Id header; a read-only grant may not write.
 */
import { z } from "zod";
import { invalidInput, MemoryError } from "../memory/errors";
import { ID_PATTERN, ID_RULE } from "../memory/ids";
import { LIMITS } from "../memory/limits";
import { appNamespace, PERSON_NAMESPACE } from "../memory/owner-address";
import type { Scope } from "../memory/types";
import type { CallerContext, Principal } from "./principal";

const principalId = z.string().regex(ID_PATTERN, ID_RULE);

/** Fields every tool (and /v1/import's query) accepts beside its own: who the call is for. */
export const scopeFields = {
  user_id: principalId
    .max(LIMITS.userIdMaxChars)
    .optional()
    .describe("End user this call is for. Required with an app key; not allowed with a user key"),
  agent_id: principalId
    .max(LIMITS.agentIdMaxChars)
    .optional()
    .describe(
      "Agent making the call (or send the X-Agent-Id header): its private memories plus shared ones are visible",
    ),
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
  const agentId = args.agent_id ?? agentHeader ?? undefined;
  if (agentId !== undefined && !principalId.safeParse(agentId).success) throw invalidInput("agent_id", ID_RULE);
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

export function requireWrite(ctx: CallerBound): void {
  if (!ctx.caller.principal.canWrite)
    throw new MemoryError(
      "forbidden",
      "This grant is read-only (memory:read); saving or changing memories needs memory:write",
    );
}
