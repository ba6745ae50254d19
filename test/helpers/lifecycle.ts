/**
 * Lifecycle test helpers: rows written straight through the D1 repo (as an import that stores
 * memories as given would), the real `scheduled()` handler driven with an optional env override, and
 * typed access to a user's Durable Object.
 */
import { createScheduledController, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { monotonicFactory } from "ulid";
import { overrideDepsForTest, type UserMemory } from "../../src/durable/user-memory";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { buildMemory, contentHash } from "../../src/memory/memory-factory";
import { ownerAddress } from "../../src/memory/owner-address";
import type { MemoryDeps } from "../../src/memory/service-deps";
import { indexTokens } from "../../src/memory/text/tokenize";
import type { Memory, Owner, Scope } from "../../src/memory/types";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";

const newId = monotonicFactory();
export const DAY = 86_400_000;

export function ownerOf(userId: string, accountId = "default"): Scope {
  return { accountId, namespace: "user", userId, actor: "test" };
}

export function stubOf(owner: Owner) {
  return env.USER_MEMORY.get(env.USER_MEMORY.idFromName(ownerAddress(owner)));
}

/**
 * `n` numbered facts for `owner`, oldest first a second apart, written in slices of 250 as an import
 * stores them; `extra` adds fields to the i-th.
 */
export async function seedFacts(owner: Scope, n: number, extra: (i: number) => Partial<Memory> = () => ({})) {
  const now = Date.now();
  for (let start = 0; start < n; start += 250)
    await insertMemories(
      owner,
      Array.from({ length: Math.min(250, n - start) }, (_, k) => ({
        content: `fact ${start + k}: likes item ${(start + k) * 7919} from shelf ${start + k}`,
        createdAt: now - (n - start - k) * 1000,
        ...extra(start + k),
      })),
    );
}

/** Writes active rows as given (no dedupe, no index): what a bulk import stores. */
export async function insertMemories(owner: Scope, rows: (Partial<Memory> & { content: string })[]): Promise<Memory[]> {
  const now = Date.now();
  const built: Memory[] = [];
  for (const row of rows) {
    const createdAt = row.createdAt ?? now;
    const base = buildMemory(owner, newId(createdAt), await contentHash(row.content), createdAt, {
      content: row.content,
      agentId: row.agentId ?? null,
    });
    built.push({ ...base, ...row, updatedAt: row.updatedAt ?? createdAt });
  }
  await new D1MemoryRepo(env.DB).write(
    owner,
    built.map((memory) => ({
      memory,
      ftsTokens: indexTokens(memory.content).join(" "),
      event: {
        memoryId: memory.id,
        op: "create" as const,
        before: null,
        after: { content: memory.content },
        actor: "test-import",
        at: memory.createdAt,
      },
    })),
    [],
  );
  return built;
}

/** The real scheduled() handler, with vars overridden for this run (e.g. SOFT_DELETE_RETENTION_DAYS=0). */
export async function runCron(opts: { vars?: Record<string, string>; scheduledTime?: number } = {}): Promise<void> {
  const controller = createScheduledController({
    scheduledTime: new Date(opts.scheduledTime ?? Date.now()),
    cron: "*/15 * * * *",
  });
  await worker.scheduled(controller, { ...env, ...(opts.vars ?? {}) } as Env);
}

/** The cron as the runtime fires it: exports.default.scheduled() with the worker's own env. */
export async function fireCron(scheduledTime = Date.now()): Promise<void> {
  const target = exports.default as unknown as {
    scheduled(o: { scheduledTime?: Date | number; cron?: string }): Promise<unknown>;
  };
  await target.scheduled({ scheduledTime, cron: "*/15 * * * *" });
}

export async function rowOf(id: string): Promise<Record<string, unknown> | null> {
  return env.DB.prepare("SELECT * FROM memories WHERE id = ?").bind(id).first();
}

export async function eventsOf(
  id: string,
): Promise<{ op: string; before: string | null; after: string | null; actor: string }[]> {
  const r = await env.DB.prepare("SELECT op, before, after, actor FROM memory_events WHERE memory_id = ? ORDER BY id")
    .bind(id)
    .all<{ op: string; before: string | null; after: string | null; actor: string }>();
  return r.results;
}

/** Runs `fn` inside the user's Durable Object with its live ports (index, fresh buffer, embedder…). */
export function withDeps<T>(owner: Owner, fn: (deps: MemoryDeps) => Promise<T>): Promise<T> {
  return runInDurableObject(stubOf(owner), async (instance: UserMemory) => {
    let deps: MemoryDeps | undefined;
    instance[overrideDepsForTest]((current) => {
      deps = current;
      return {};
    });
    return fn(deps!);
  });
}

/** Replaces ports of the user's Durable Object (through the documented test seam). */
export function overrideDeps(owner: Owner, override: (deps: MemoryDeps) => Partial<MemoryDeps>): Promise<void> {
  return runInDurableObject(stubOf(owner), async (instance: UserMemory) => {
    instance[overrideDepsForTest](override);
  });
}

export async function ok<T>(p: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`RPC failed: ${JSON.stringify(r.error)}`);
  return r.value;
}
