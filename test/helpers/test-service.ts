/** Builds a MemoryService on the real test D1 with replaceable ports, for integration tests. */
import { env } from "cloudflare:workers";
import { monotonicFactory } from "ulid";
import { FreshBuffer } from "../../src/memory/fresh-buffer";
import { MemoryService } from "../../src/memory/memory-service";
import type {
  ConversationState,
  ConversationStore,
  IdempotencyStore,
  MemoryRepo,
  SessionCounter,
  SessionCounterStore,
  VectorIndex,
} from "../../src/memory/ports";
import type { MemoryDeps } from "../../src/memory/service-deps";
import { LocalHashEmbedder } from "../../src/providers/local-hash-embedder";
import { RulesLlm } from "../../src/providers/rules-llm";
import { NoReranker } from "../../src/providers/workers-ai-reranker";
import { D1EntityStore } from "../../src/storage/entities/d1-entity-store";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";

export class MemoryIdempotency implements IdempotencyStore {
  private readonly map = new Map<string, { value: unknown; at: number }>();
  async get(key: string, notBefore: number) {
    const hit = this.map.get(key);
    return hit && hit.at >= notBefore ? hit.value : null;
  }
  async put(key: string, value: unknown, now: number) {
    this.map.set(key, { value, at: now });
  }
}

/** Session counters in a Map: the DO's SQLite store's contract without the DO. */
export class MemorySessionCounters implements SessionCounterStore {
  readonly counters = new Map<string, SessionCounter>();
  advance(key: string, next: (previous: SessionCounter | undefined) => SessionCounter, idleSince: number) {
    const counter = next(this.counters.get(key));
    this.counters.set(key, counter);
    for (const [k, c] of this.counters) if (k !== key && c.lastAt <= idleSince) this.counters.delete(k);
    return counter;
  }
}

import { recordingLogger } from "./recording-logger";

export { recordingLogger };

/** Routed conversations in a Map: the DO's SQLite store's contract without the DO. */
export class MemoryConversations implements ConversationStore {
  readonly states = new Map<string, ConversationState>();
  get(key: string) {
    return this.states.get(key);
  }
  put(key: string, state: ConversationState, idleSince: number) {
    this.states.set(key, state);
    for (const [k, s] of this.states) if (k !== key && s.lastAt <= idleSince) this.states.delete(k);
  }
}

export function testService(overrides: Partial<MemoryDeps> & { index: VectorIndex; repo?: MemoryRepo }): MemoryService {
  const newId = monotonicFactory();
  return new MemoryService({
    repo: new D1MemoryRepo(env.DB),
    entities: new D1EntityStore(env.DB),
    embedder: new LocalHashEmbedder(),
    reranker: new NoReranker(),
    llm: new RulesLlm(),
    clock: { now: () => Date.now() },
    fresh: new FreshBuffer(),
    idempotency: new MemoryIdempotency(),
    sessions: new MemorySessionCounters(),
    conversations: new MemoryConversations(),
    newId: () => newId(),
    log: recordingLogger(),
    timer: { time: async (_phase, work) => work() },
    settings: {
      maxResults: 5,
      confidenceFloor: 0.6,
      longContentChars: 500,
      embedderKind: "local",
      retentionDays: 30,
      halfLifeDays: 30,
    },
    ...overrides,
  });
}
