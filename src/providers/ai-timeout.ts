/**
 * @module providers/ai-timeout
 * A bound on how long one model call may take. The binding gets an AbortSignal (so the request
 * is cancelled), and the wait itself is raced against a timer, so a call that ignores the signal
 * still cannot hold a save or a recall. The bound is the call's own timeout cut to what is left of
 * the tool call's deadline (gate/call-deadline.ts); with nothing left the call is not made. With a
 * circuit breaker (gate/circuit-breaker.ts) a provider that keeps failing is skipped at once.
 */
import { deadlineLeftMs } from "./gate/call-deadline";
import type { CircuitBreaker } from "./gate/circuit-breaker";

export class AiTimeoutError extends Error {
  constructor(ms: number) {
    super(ms > 0 ? `no answer within ${ms} ms` : "no time left before the call's deadline");
    this.name = "AiTimeoutError";
  }
}

/**
 * Runs `call` with an abort signal; rejects with AiTimeoutError after `ms` or at the deadline,
 * whichever comes first, and with CircuitOpenError (not calling) while `breaker` is open.
 */
export async function withAiTimeout<T>(
  ms: number,
  call: (signal: AbortSignal) => Promise<T>,
  breaker?: CircuitBreaker,
): Promise<T> {
  const bound = Math.floor(Math.min(ms, deadlineLeftMs()));
  if (bound <= 0) throw new AiTimeoutError(0);
  const timed = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AiTimeoutError(bound)), bound);
    });
    try {
      return await Promise.race([call(AbortSignal.timeout(bound)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  if (!breaker) return timed();
  // Cut short by the tool call's deadline: a late answer then says nothing about the provider, so the
  // call is skipped while the breaker is open but does not count toward opening it.
  if (bound < ms) return breaker.skipWhileOpen(timed);
  return breaker.run(timed);
}
