/**
 * @module durable/session-recall
 * Recall with progressive injection: advances the session counter held in the user's Durable Object
 * and shapes the service's ranked search for the stage. Counters live in the object's SQLite, so an
 * object evicted between two calls of a session still knows the session. An explicit limit or
 * PROGRESSIVE_INJECTION=off bypasses the shaping (and does not count as a session call).
 */
import type { Config } from "../config";
import type { RecallInput } from "../memory/contracts";
import { LIMITS } from "../memory/limits";
import type { MemoryService } from "../memory/memory-service";
import type { FusedCandidate } from "../memory/recall/fuse-scores";
import { advanceSession, CORE_LIMIT, type Stage, shapeStage } from "../memory/recall/progressive-injection";
import type { Scope } from "../memory/types";

export interface SessionRecall {
  stage: Stage;
  results: FusedCandidate[];
  /** How many of `results` match the query; at stage 1 the rest is the user's core profile. */
  matches: number;
  totalRelevant: number;
  moreAvailable: number;
}

/** Per-session call counters in the Durable Object's SQLite. */
export class SessionCounters {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS session_counters (key TEXT PRIMARY KEY, calls INTEGER NOT NULL, last_at INTEGER NOT NULL)",
    );
    sql.exec("CREATE INDEX IF NOT EXISTS session_counters_last_at ON session_counters (last_at)");
  }

  /** Counts one call of `key` and returns its stage. Synchronous, so concurrent calls cannot both read the same count. */
  advance(key: string, now: number, resetMs: number): Stage {
    const row = this.sql
      .exec<{ calls: number; last_at: number }>("SELECT calls, last_at FROM session_counters WHERE key = ?", key)
      .toArray()[0];
    const { stage, counter } = advanceSession(
      row ? { calls: row.calls, lastAt: row.last_at } : undefined,
      now,
      resetMs,
    );
    this.sql.exec(
      "INSERT OR REPLACE INTO session_counters (key, calls, last_at) VALUES (?, ?, ?)",
      key,
      counter.calls,
      counter.lastAt,
    );
    // A session idle past the reset window would start again at call 1 anyway: forget it.
    this.sql.exec("DELETE FROM session_counters WHERE last_at <= ? AND key <> ?", now - resetMs, key);
    return stage;
  }
}

export async function recallWithSession(
  svc: MemoryService,
  counters: SessionCounters,
  config: Config,
  scope: Scope,
  input: RecallInput,
): Promise<SessionRecall> {
  if (input.limit !== undefined || config.PROGRESSIVE_INJECTION === "off") {
    const out = await svc.recall(scope, input, input.limit ?? config.MAX_RESULTS);
    return {
      stage: 3,
      results: out.results,
      matches: out.results.length,
      totalRelevant: out.totalRelevant,
      moreAvailable: Math.max(0, out.totalRelevant - out.results.length),
    };
  }
  const key = scope.sessionKey ?? `${scope.actor}:${scope.agentId ?? ""}`;
  const stage = counters.advance(key, svc.deps.clock.now(), config.PROGRESSIVE_RESET_SECONDS * 1000);
  // Rank widely without counting access: only what the stage shows counts as recalled.
  // Stage 1's core memories are read beside the search: one D1 round trip, not two.
  const [out, coreRows] = await Promise.all([
    svc.recall(scope, input, LIMITS.recallLimitMax, { touch: false }),
    stage === 1 ? svc.core(scope, CORE_LIMIT, input) : [],
  ]);
  const core = coreRows.map((memory) => ({ memory, score: 0 }));
  const { results, matches, moreAvailable } = shapeStage(
    stage,
    out.results,
    out.totalRelevant,
    core,
    config.MAX_RESULTS,
  );
  svc.touch(
    scope,
    results.map((r) => r.memory.id),
  );
  return { stage, results, matches, totalRelevant: out.totalRelevant, moreAvailable };
}
