/**
 * @module platform-limits/workers-ai-usage
 * The Workers AI binding with each `run` counted on the current invocation (invocation-budget.ts):
 * by kind (embedding, reranking, generation, from the model's name), and, when it fails, whether the
 * account's rate limit or its spent daily free allocation refused it. The figures end in the user's
 * daily usage (daily-usage.ts). Only real calls are counted: a call the circuit breaker or the deadline
 * skips never reaches the binding. Errors are matched by plain substrings (no regex over error text):
 * Workers AI's errors page (developers.cloudflare.com/workers-ai/platform/errors/, last updated
 * 2026-07-29, read 2026-12-05) lists "Account limited", internal code 3036, HTTP 429: "You have used up
 * your daily free allocation of 10,000 neurons"; deployed bindings have also been seen answering code
 * 4006 with the same words, so the words decide, and either code alone too.
 */
import { isEmbeddingModel, isRerankerModel } from "../providers/workers-ai-models";
import type { AiTally } from "./daily-usage";
import { currentInvocation } from "./invocation-budget";

export type AiRefusal = "daily_allocation" | "rate_limited" | "failed";

const DAILY_ALLOCATION_TEXTS = ["daily free allocation", "4006:", "3036:"] as const;
const RATE_LIMIT_TEXTS = ["rate limit", "429", "too many requests"] as const;

/** Why a Workers AI call failed: the spent daily allocation, the rate limit, or anything else. */
export function classifyAiFailure(err: unknown): AiRefusal {
  const text = (err instanceof Error ? err.message : typeof err === "string" ? err : "").slice(0, 500).toLowerCase();
  if (DAILY_ALLOCATION_TEXTS.some((t) => text.includes(t))) return "daily_allocation";
  if (RATE_LIMIT_TEXTS.some((t) => text.includes(t))) return "rate_limited";
  return "failed";
}

/** True when `err` is Workers AI's refusal for the account's spent daily free allocation. */
export const isAiDailyAllocation = (err: unknown): boolean => classifyAiFailure(err) === "daily_allocation";

function countCall(tally: AiTally, model: unknown): void {
  const name = typeof model === "string" ? model : "";
  if (isEmbeddingModel(name)) tally.embeddings += 1;
  else if (isRerankerModel(name)) tally.reranks += 1;
  else tally.generations += 1;
}

/** Adds one failed call's refusal to `tally`. */
export function countFailure(tally: AiTally, err: unknown, now: number): void {
  tally.failures += 1;
  const refusal = classifyAiFailure(err);
  if (refusal === "failed") return;
  if (refusal === "daily_allocation") tally.dailyAllocation += 1;
  else tally.rateLimited += 1;
  tally.lastLimitAt = now;
}

/** `ai` with every `run` counted on the invocation current at the call (none: not counted). */
export function meteredAi<A extends object>(ai: A, now: () => number = Date.now): A {
  return new Proxy(ai, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (prop !== "run" || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const tally = currentInvocation()?.ai;
        if (tally) countCall(tally, args[0]);
        try {
          return await Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        } catch (err) {
          if (tally) countFailure(tally, err, now());
          throw err;
        }
      };
    },
  });
}

const wrapped = new WeakMap<object, object>();

/** `env` with its `AI` binding metered (made once per env, like limited-env.ts); `env` itself without one. */
export function meteredAiEnv<E extends object>(env: E): E {
  const ai = Reflect.get(env, "AI") as unknown;
  if (typeof ai !== "object" || ai === null) return env;
  const hit = wrapped.get(env);
  if (hit) return hit as E;
  const out = { ...(env as Record<string, unknown>), AI: meteredAi(ai) };
  wrapped.set(env, out);
  wrapped.set(out, out);
  return out as E;
}
