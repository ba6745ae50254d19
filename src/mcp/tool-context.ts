/**
 * @module mcp/tool-context
 * What a tool handler gets: config, locale, the caller, and `withMemory`, which resolves the
 * acting user (user keys act as themselves; app keys must name user_id), picks the user's Durable
 * Object and turns its RpcResult back into a value or a MemoryError.
 */
import { z } from "zod";
import type { Config } from "../config";
import type { RpcResult, UserMemory } from "../durable/user-memory";
import type { Env } from "../env";
import type { CallerContext } from "../http/principal";
import { invalidInput, MemoryError } from "../memory/errors";
import { LIMITS } from "../memory/limits";
import type { Scope } from "../memory/types";
import type { Messages } from "./messages";

export interface ToolContext {
  env: Env;
  config: Config;
  caller: CallerContext;
  messages: Messages;
}

const principalId = z
  .string()
  .regex(/^[A-Za-z0-9_.@:-]{1,128}$/, "must be 1-128 characters of letters, digits, _ . @ : -");

/** Fields every tool accepts beside its own: who the call is for. */
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

export function resolveScope(ctx: ToolContext, args: ScopeArgs): Scope {
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
  if (agentId !== undefined && !principalId.safeParse(agentId).success)
    throw invalidInput("agent_id", "must be 1-128 characters of letters, digits, _ . @ : -");
  const actor = `key:${principal.keyId}`;
  const sessionKey = args.session_id
    ? `arg:${args.session_id}`
    : sessionHeader
      ? `hdr:${sessionHeader}`
      : `${actor}:${agentId ?? ""}`;
  return { accountId: principal.accountId, userId, agentId, actor, sessionKey };
}

export function requireWrite(ctx: ToolContext): void {
  if (!ctx.caller.principal.canWrite)
    throw new MemoryError(
      "forbidden",
      "This grant is read-only (memory:read); saving or changing memories needs memory:write",
    );
}

export async function withMemory<T>(
  ctx: ToolContext,
  args: ScopeArgs,
  call: (stub: DurableObjectStub<UserMemory>, scope: Scope) => Promise<RpcResult<T>>,
): Promise<T> {
  const scope = resolveScope(ctx, args);
  const stub = ctx.env.USER_MEMORY.get(ctx.env.USER_MEMORY.idFromName(`${scope.accountId}:${scope.userId}`));
  const result = (await call(stub, scope)) as RpcResult<T>;
  if (!result.ok) throw MemoryError.from(result.error);
  return result.value;
}
