/**
 * @module providers/gate/circuit-breaker
 * Skips a provider that keeps failing or answering slowly. Each provider adapter holds one breaker
 * (one per Durable Object: the adapters are built per object), so one user's slow upstream costs
 * that user at most `strikes` timed-out calls before every further call fails at once, for
 * `coolDownMs`, degrading exactly as an outage does. After the cool-down one call is let through
 * (half-open): an answer in time closes the breaker, another failure opens it again.
 */

export class CircuitOpenError extends Error {
  constructor(readonly provider: string) {
    super(`${provider} skipped for a while after repeated failures (circuit open)`);
    this.name = "CircuitOpenError";
  }
}

export interface BreakerOptions {
  /** Consecutive failures (errors, timeouts, answers slower than slowMs) that open it. */
  strikes?: number;
  /** How long an open breaker skips the provider. */
  coolDownMs?: number;
  /** An answer slower than this counts as a failure though it is used. */
  slowMs?: number;
  now?: () => number;
}

export const BREAKER_STRIKES = 2;
export const BREAKER_COOL_DOWN_MS = 30_000;

export class CircuitBreaker {
  private failures = 0;
  private openUntil = 0;
  /** Opened before and not yet answered in time since: one more failure opens it again (half-open). */
  private tripped = false;
  private readonly strikes: number;
  private readonly coolDownMs: number;
  private readonly slowMs: number;
  private readonly now: () => number;

  constructor(
    readonly provider: string,
    options: BreakerOptions = {},
  ) {
    this.strikes = options.strikes ?? BREAKER_STRIKES;
    this.coolDownMs = options.coolDownMs ?? BREAKER_COOL_DOWN_MS;
    this.slowMs = options.slowMs ?? Number.POSITIVE_INFINITY;
    this.now = options.now ?? Date.now;
  }

  /** True while calls are being skipped. */
  get open(): boolean {
    return this.now() < this.openUntil;
  }

  /** Runs `call` unless the breaker is open (then throws CircuitOpenError without calling). */
  async run<T>(call: () => Promise<T>): Promise<T> {
    this.refuseWhileOpen();
    const started = this.now();
    try {
      const value = await call();
      if (this.now() - started > this.slowMs) this.strike();
      else {
        this.failures = 0;
        this.tripped = false;
      }
      return value;
    } catch (err) {
      this.strike();
      throw err;
    }
  }

  /** Runs `call` unless the breaker is open, without counting how it ends (a call cut short by a deadline). */
  async skipWhileOpen<T>(call: () => Promise<T>): Promise<T> {
    this.refuseWhileOpen();
    return call();
  }

  private refuseWhileOpen(): void {
    if (this.open) throw new CircuitOpenError(this.provider);
  }

  /** Counts a failure the call itself could not see (an answer refused after it came: wrong size, not finite). */
  strike(): void {
    this.failures++;
    if (this.failures >= this.strikes || this.tripped) {
      this.openUntil = this.now() + this.coolDownMs;
      this.failures = 0;
      this.tripped = true;
    }
  }
}
