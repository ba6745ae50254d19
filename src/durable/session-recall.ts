/**
 * @module durable/session-recall
 * Recall with progressive injection: advances the session counter held by the Durable Object and
 * asks the memory service for what the stage allows. An explicit limit or PROGRESSIVE_INJECTION=off
 * bypasses the shaping.
 */
import type { Config } from "../config";
import type { RecallInput } from "../memory/contracts";
import type { MemoryService } from "../memory/memory-service";
import type { FusedCandidate } from "../memory/recall/fuse-scores";
import { advanceSession, pickCore, type SessionCounter, type Stage } from "../memory/recall/progressive-injection";
import type { Scope } from "../memory/types";

export interface SessionRecall {
  stage: Stage;
  results: FusedCandidate[];
  totalRelevant: number;
  moreAvailable: number;
}

const MAX_SESSIONS = 1000;

export async function recallWithSession(
  svc: MemoryService, sessions: Map<string, SessionCounter>, config: Config, scope: Scope, input: RecallInput,
): Promise<SessionRecall> {
  const shaped = input.limit === undefined && config.PROGRESSIVE_INJECTION === "on";
  if (!shaped) {
    const out = await svc.recall(scope, input, input.limit ?? config.MAX_RESULTS);
    return { stage: 3, results: out.results, totalRelevant: out.totalRelevant, moreAvailable: Math.max(0, out.totalRelevant - out.results.length) };
  }
  const key = scope.sessionKey ?? `${scope.actor}:${scope.agentId ?? ""}`;
  const now = svc.deps.clock.now();
  const { stage, counter } = advanceSession(sessions.get(key), now, config.PROGRESSIVE_RESET_SECONDS * 1000);
  sessions.delete(key);
  sessions.set(key, counter);
  if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
  if (stage === 3) {
    const out = await svc.recall(scope, input, config.MAX_RESULTS);
    return { stage, results: out.results, totalRelevant: out.totalRelevant, moreAvailable: Math.max(0, out.totalRelevant - out.results.length) };
  }
  const out = await svc.recall(scope, input, 50);
  if (stage === 2) {
    return { stage, results: out.results.slice(0, 1), totalRelevant: out.totalRelevant, moreAvailable: Math.max(0, out.totalRelevant - 1) };
  }
  const core = await svc.list(scope, { order: "priority", limit: 10 });
  const fallback = core.memories.filter((m) => m.priority <= 2 || m.category === "personal").map((memory) => ({ memory, score: 0 }));
  const results = pickCore(out.results, fallback);
  return { stage, results, totalRelevant: out.totalRelevant, moreAvailable: Math.max(0, out.totalRelevant - results.length) };
}
