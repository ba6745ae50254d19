/**
 * @module memory/write/remainder
 * Supersede with a remainder: when a new memory contradicts one fact of a stored memory that states
 * several ("I live in Lisbon and teach yoga on weekends" → "I moved to Porto"), the stored memory is
 * superseded as a whole (its row and history keep every word), and the facts the new memory leaves
 * standing ("I teach yoga on weekends") become a new active memory derived from it: same category,
 * tags, agent, source, event time and priority, `derived_from: [<superseded id>]`, its `create`
 * event naming the memory it was kept from and the one that superseded it. A remainder the Llm
 * proposes is kept only when it says less than the stored memory in the stored memory's own words
 * (no content token the stored memory lacks), so a model cannot slip a new fact in. Pure but for
 * the embedder and the id/hash helpers it is handed.
 */
import { embedOrNull } from "../indexing";
import { buildMemory, contentHash } from "../memory-factory";
import type { ConflictDecision, MemoryWrite } from "../ports";
import type { MemoryDeps } from "../service-deps";
import { indexTokens, normalizeForHash } from "../text/tokenize";
import type { Memory, Scope } from "../types";
import { addsNothing } from "./near-duplicate";
import { redactText } from "./redact-secrets";

/** A remainder memory ready to write, with its vector. */
export interface Remainder {
  memory: Memory;
  /** Null when the embedding model was unavailable: stored with indexed_at null, indexed later. */
  vector: Float32Array | null;
  /** The superseded memory it was kept from. */
  fromId: string;
}

/** The remainder text the decision offers for `older`, when it is a true part of it; else null. */
export function acceptedRemainder(older: Memory, offered: string | undefined): string | null {
  if (offered === undefined) return null;
  const text = redactText(offered.trim());
  if (text.length === 0 || text.length >= older.content.length) return null;
  if (normalizeForHash(text) === normalizeForHash(older.content)) return null;
  return addsNothing(text, older.content) ? text : null;
}

/**
 * The remainders of the memories `newer` supersedes (`older`), from the decision's offers;
 * `candidates` are the memories the decision's handles number from 1.
 */
export async function remaindersOf(
  deps: MemoryDeps,
  scope: Scope,
  newer: Memory,
  older: Memory[],
  candidates: Memory[],
  decision: ConflictDecision,
): Promise<Remainder[]> {
  const offered = new Map((decision.remainders ?? []).map((r) => [candidates[r.handle - 1]?.id, r.content]));
  const kept = older
    .map((memory) => ({ from: memory, text: acceptedRemainder(memory, offered.get(memory.id)) }))
    .filter((r): r is { from: Memory; text: string } => r.text !== null);
  if (kept.length === 0) return [];
  // No vector when the model is unavailable: the remainder is stored like any save, indexed later.
  const vectors = await embedOrNull(
    deps,
    kept.map((r) => r.text),
    "the remainder is stored, indexed later",
  );
  const out: Remainder[] = [];
  for (const [i, r] of kept.entries()) {
    const memory = buildMemory(scope, deps.newId(), await contentHash(r.text), newer.createdAt, {
      content: r.text,
      category: r.from.category,
      tags: r.from.tags,
      priority: r.from.priority,
      confidence: r.from.confidence,
      memoryType: r.from.memoryType,
      source: r.from.source,
      eventTime: r.from.eventTime,
      expiresAt: r.from.expiresAt,
      agentId: r.from.agentId,
      derivedFrom: [r.from.id],
    });
    out.push({ memory, vector: vectors?.[i] ?? null, fromId: r.from.id });
  }
  return out;
}

/** The rows that write the remainders: each with its FTS tokens and a `create` event saying where it came from. */
export function remainderWrites(remainders: Remainder[], newerId: string, actor: string): MemoryWrite[] {
  return remainders.map(({ memory, fromId }) => ({
    memory,
    ftsTokens: indexTokens(memory.content).join(" "),
    event: {
      memoryId: memory.id,
      op: "create",
      before: null,
      after: { ...memory, reason: `remainder of ${fromId}: the facts ${newerId} does not contradict` },
      actor,
      at: memory.createdAt,
    },
  }));
}
