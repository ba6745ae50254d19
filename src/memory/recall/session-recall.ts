/**
 * @module memory/recall/session-recall
 * Recall with progressive injection: counts the call in its session (SessionCounterStore) and shapes
 * the ranked search for the stage (progressive-injection.ts). An explicit limit or progressive
 * injection turned off bypasses the shaping and does not count as a session call.
 */
import type { RecallInput } from "../contracts";
import { LIMITS } from "../limits";
import type { MemoryService } from "../memory-service";
import type { Scope } from "../types";
import type { FusedCandidate } from "./fuse-scores";
import {
  advanceSession,
  CORE_LIMIT,
  EXCERPT_TOKENS,
  FIRST_CALL_TOKENS,
  type Stage,
  shapeStage,
  shownText,
  stageOf,
} from "./progressive-injection";

export interface SessionRecall {
  stage: Stage;
  results: FusedCandidate[];
  /** How many of `results` match the query; at stage 1 the rest is the user's core profile. */
  matches: number;
  totalRelevant: number;
  moreAvailable: number;
  /** Stages 1 and 2 with excerpts on: the text each result is shown as (an excerpt of a long one). */
  shown?: string[];
}

/** Progressive injection when the settings name none: on, sessions reset after 5 idle minutes. */
export const DEFAULT_PROGRESSIVE = {
  enabled: true,
  resetMs: 300_000,
  firstCallTokens: FIRST_CALL_TOKENS,
  excerptTokens: EXCERPT_TOKENS,
};

/** The session a call belongs to: its session id, else the caller and agent. */
export function sessionKey(scope: Scope): string {
  return scope.sessionKey ?? `${scope.actor}:${scope.agentId ?? ""}`;
}

export async function recallInSession(svc: MemoryService, scope: Scope, input: RecallInput): Promise<SessionRecall> {
  const { settings, sessions, clock } = svc.deps;
  const progressive = settings.progressive ?? DEFAULT_PROGRESSIVE;
  if (input.limit !== undefined || !progressive.enabled) {
    const out = await svc.recall(scope, input, input.limit ?? settings.maxResults);
    const shown = out.results.length;
    return {
      stage: 3,
      results: out.results,
      matches: shown,
      totalRelevant: out.totalRelevant,
      moreAvailable: Math.max(0, out.totalRelevant - shown),
    };
  }
  const now = clock.now();
  const counter = sessions.advance(
    sessionKey(scope),
    (previous) => advanceSession(previous, now, progressive.resetMs).counter,
    now - progressive.resetMs, // an idle session would start again at call 1 anyway: forget it
  );
  const stage = stageOf(counter);
  // Rank widely without counting access: only what the stage shows counts as recalled.
  // Stage 1's core memories are read beside the search: one D1 round trip, not two.
  const [out, coreRows] = await Promise.all([
    svc.recall(scope, input, LIMITS.recallLimitMax, { touch: false }),
    stage === 1 ? svc.core(scope, CORE_LIMIT, input) : [],
  ]);
  const core = coreRows.map((memory) => ({ memory, score: 0 }));
  const shown = stage < 3 ? shownText(input.query, progressive.excerptTokens ?? 0) : undefined;
  const shaped = shapeStage(
    stage,
    out.results,
    out.totalRelevant,
    core,
    settings.maxResults,
    progressive.firstCallTokens,
    shown,
  );
  svc.touch(
    scope,
    shaped.results.map((r) => r.memory.id),
  );
  return {
    stage,
    ...shaped,
    totalRelevant: out.totalRelevant,
    ...(shown ? { shown: shaped.results.map(shown) } : {}),
  };
}
