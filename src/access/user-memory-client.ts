/**
 * @module access/user-memory-client
 * The client side of the UserMemory Durable Object, shared by the MCP tools and the HTTP routes:
 * resolves the acting user, picks that owner's object (one per owner address, memory/owner-address.ts) and turns its
 * RpcResult back into a value or a MemoryError, so typed errors survive the RPC boundary.
 */
import type { RpcResult, UserMemory } from "../durable/user-memory";
import type { Env } from "../env";
import { MemoryError } from "../memory/errors";
import { ownerAddress } from "../memory/owner-address";
import type { Scope } from "../memory/types";
import { currentTiming } from "../timing/request-timing";
import { type CallerBound, resolveScope, type ScopeArgs } from "./scope";

/** What a memory call needs: the bindings and the caller. */
export interface MemoryCallContext extends CallerBound {
  env: Env;
}

export async function withMemory<T>(
  ctx: MemoryCallContext,
  args: ScopeArgs,
  call: (stub: DurableObjectStub<UserMemory>, scope: Scope) => Promise<RpcResult<T>>,
): Promise<T> {
  const scope = resolveScope(ctx, args);
  const stub = ctx.env.USER_MEMORY.get(ctx.env.USER_MEMORY.idFromName(ownerAddress(scope)));
  const started = performance.now();
  const result = (await call(stub, scope)) as RpcResult<T>;
  currentTiming()?.addDurableObjectCall(performance.now() - started, result.timing);
  if (!result.ok) throw MemoryError.from(result.error);
  return result.value;
}
