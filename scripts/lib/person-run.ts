/**
 * @module scripts/lib/person-run
 * One scripted life through a running server, as an agent would live it, over MCP (bench-run.ts's
 * client): each `save` session's turns are save_memory calls, each `transcript` session is one
 * summarize_conversation call with the session's day as its event_time (noon UTC), in order. The
 * memory ids each write returns are the fact's memories: save_memory's id; for a transcript, the
 * outcomes of the fact's turn (1-based message number), narrowed by the fact's marker when one turn
 * states several. Then every question goes to recall_memory (limit 10) after one warm-up call, and
 * person-score.ts scores what came back. Everything recall returns must be the user's own memory
 * (listed after the writes), else the run stops.
 */
import { recall, type Server } from "./bench-run.ts";
import { benchUserId, ownEvidence } from "./bench-users.ts";
import type { Life, Session } from "./person-data.ts";
import {
  type FactMemories,
  outcomeFacts,
  type QuestionOutcome,
  scoreQuestion,
  type TranscriptOutcome,
} from "./person-score.ts";

interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: { text?: string }[];
}

async function call(s: Server, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await s.client.callTool({ name, arguments: args })) as ToolAnswer;
}

const errorText = (r: ToolAnswer) =>
  (r.content ?? [])
    .map((c) => c.text ?? "")
    .join(" ")
    .slice(0, 200);

export interface LifeIngest {
  /** Tool calls made (save_memory + summarize_conversation). */
  writes: number;
  /** Calls that answered with an error (the facts they carried are not stored). */
  failedWrites: number;
  /** Facts that ended with no memory (rejected, not extracted, or not attributable to their turn). */
  unstored: string[];
  ms: number;
}

function addFact(facts: FactMemories, key: string, id: string): void {
  const ids = facts.get(key) ?? [];
  if (!ids.includes(id)) ids.push(id);
  facts.set(key, ids);
}

async function saveSession(s: Server, userId: string, session: Session, facts: FactMemories, ingest: LifeIngest) {
  for (const t of session.turns) {
    ingest.writes++;
    const r = await call(s, "save_memory", { content: t.text, user_id: userId });
    if (r.isError) {
      ingest.failedWrites++;
      process.stderr.write(`bench: save_memory failed for ${userId}: ${errorText(r)}\n`);
      continue;
    }
    const id = r.structuredContent?.id;
    if (typeof id === "string") for (const f of t.facts ?? []) addFact(facts, f.key, id);
  }
}

async function transcriptSession(s: Server, userId: string, session: Session, facts: FactMemories, ingest: LifeIngest) {
  ingest.writes++;
  const r = await call(s, "summarize_conversation", {
    messages: session.turns.map((t) => ({ role: t.role, content: t.text })),
    event_time: `${session.date}T12:00:00.000Z`,
    user_id: userId,
  });
  if (r.isError) {
    ingest.failedWrites++;
    process.stderr.write(`bench: summarize_conversation failed for ${userId}: ${errorText(r)}\n`);
    return;
  }
  const outcomes = (r.structuredContent?.outcomes ?? []) as TranscriptOutcome[];
  for (const [key, id] of outcomeFacts(session.turns, outcomes)) addFact(facts, key, id);
}

/** Writes a life's sessions in order; returns each fact's memories. */
export async function liveLife(s: Server, life: Life): Promise<{ facts: FactMemories; ingest: LifeIngest }> {
  const userId = benchUserId(life.id);
  const facts: FactMemories = new Map();
  const ingest: LifeIngest = { writes: 0, failedWrites: 0, unstored: [], ms: 0 };
  const started = performance.now();
  for (const session of life.sessions)
    if (session.via === "save") await saveSession(s, userId, session, facts, ingest);
    else await transcriptSession(s, userId, session, facts, ingest);
  ingest.ms = performance.now() - started;
  for (const session of life.sessions)
    for (const t of session.turns)
      for (const f of t.facts ?? []) if (!facts.get(f.key)?.length) ingest.unstored.push(f.key);
  return { facts, ingest };
}

/** Every memory id the user holds, whatever its status (list_memories, page by page). */
async function ownIds(s: Server, userId: string): Promise<Map<string, string>> {
  const own = new Map<string, string>();
  let cursor: string | undefined;
  do {
    const r = await call(s, "list_memories", {
      status: "all",
      limit: 100,
      user_id: userId,
      ...(cursor ? { cursor } : {}),
    });
    if (r.isError) throw new Error(`list_memories failed for ${userId}: ${errorText(r)}`);
    const page = r.structuredContent as { memories?: { id: string }[]; next_cursor?: string | null } | undefined;
    for (const m of page?.memories ?? []) own.set(m.id, m.id);
    cursor = page?.next_cursor ?? undefined;
  } while (cursor);
  return own;
}

/** Asks every question of a life and scores it; also the round-trip time of each recall. */
export async function askLife(
  s: Server,
  life: Life,
  facts: FactMemories,
): Promise<{ outcomes: QuestionOutcome[]; latencies: number[] }> {
  const userId = benchUserId(life.id);
  const own = await ownIds(s, userId);
  await recall(s, userId, "warm-up");
  const keyOf = new Map<string, string>();
  for (const [key, ids] of facts) for (const id of ids) keyOf.set(id, keyOf.has(id) ? `${keyOf.get(id)}+${key}` : key);
  const outcomes: QuestionOutcome[] = [];
  const latencies: number[] = [];
  for (const q of life.questions) {
    const r = await recall(s, userId, q.question);
    ownEvidence(userId, r.ids, own);
    latencies.push(r.ms);
    outcomes.push({ ...scoreQuestion(life.lang, q, r.memories, facts), got: r.ids.map((id) => keyOf.get(id) ?? "?") });
  }
  return { outcomes, latencies };
}
