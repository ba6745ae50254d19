/**
 * @module providers/gate/call-deadline
 * The overall deadline of one tool call or import slice. The user's Durable Object opens one for
 * every call it runs (durable/user-memory.ts), before the call waits in the user's write queue; an
 * AsyncLocalStorage carries it to every model call made on the way, so a provider call never waits
 * past it: its own timeout is cut to what is left, and once nothing is left the call is not made at
 * all and degrades exactly as a timed-out one (the embedder answers provider_unavailable, the Llm the
 * rules' answer). A call with no deadline open (a test, a script) keeps its own timeout.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** A tool call's overall deadline: every model call it makes ends by then (the user's queue with it). */
export const TOOL_CALL_DEADLINE_MS = 25_000;

const deadlines = new AsyncLocalStorage<number>();

/** Runs `work` under a deadline `ms` from now (an inner, later deadline never extends an outer one). */
export function withCallDeadline<T>(ms: number, work: () => T, now = Date.now()): T {
  const outer = deadlines.getStore();
  const at = outer === undefined ? now + ms : Math.min(outer, now + ms);
  return deadlines.run(at, work);
}

/** Milliseconds left before the current deadline; Infinity when none is open. */
export function deadlineLeftMs(now = Date.now()): number {
  const at = deadlines.getStore();
  return at === undefined ? Number.POSITIVE_INFINITY : at - now;
}
