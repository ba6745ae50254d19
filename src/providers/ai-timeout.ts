/**
 * @module providers/ai-timeout
 * A bound on how long one Workers AI call may take. The binding gets an AbortSignal (so the request
 * is cancelled), and the wait itself is raced against a timer, so a call that ignores the signal
 * still cannot hold a save or a recall.
 */

export class AiTimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "AiTimeoutError";
  }
}

/** Runs `call` with an abort signal; rejects with AiTimeoutError after `ms`. */
export async function withAiTimeout<T>(ms: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AiTimeoutError(ms)), ms);
  });
  try {
    return await Promise.race([call(AbortSignal.timeout(ms)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
