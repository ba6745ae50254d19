/**
 * @module mcp/views
 * Output schemas (zod, described) and converters from domain memories to what tools return, plus
 * the readable text rendering: memories shown as dated data, never as instructions.
 */
import { z } from "zod";
import { MEMORY_STATUSES, MEMORY_TYPES } from "../memory/contracts";
import type { MemoryUpdate } from "../memory/recall/fuse-scores";
import type { Memory } from "../memory/types";
import { localeMessages, type Messages } from "./messages";

/** A count in an output. */
export const count = z.number().int().min(0);
/** An ISO 8601 timestamp in an output. */
export const isoText = z.string();
/** A memory id in an output. */
export const idView = z.string();
/** Why a write was merged, superseded, quarantined or rejected (a server sentence). */
export const reasonView = z.string();
/** Secrets removed before storing, by kind. */
export const redactedView = z
  .array(z.object({ kind: z.string().describe("Kind of secret"), count: count.describe("How many") }))
  .describe("Secrets removed before storing");

/** A write's index state: stored and found by its words now, its vector to come from index repair. */
export const indexedLaterView = z
  .boolean()
  .describe("Stored, not yet in the vector index (found by keywords until repaired)");

export const memoryView = z.object({
  id: idView.describe("Memory id"),
  content: z.string().describe("What is remembered"),
  category: z.string().describe("Topic"),
  tags: z.array(z.string()).describe("Labels"),
  priority: z.number().int().min(1).max(5).describe("1 core … 5 trivia"),
  memory_type: z.enum(MEMORY_TYPES).describe("Lasting fact or event"),
  status: z.enum(MEMORY_STATUSES).describe("Lifecycle status"),
  agent_id: z.string().nullable().describe("Owning agent; null = shared"),
  source: z.string().nullable().describe("Origin"),
  created_at: isoText.describe("Saved at"),
  updated_at: isoText.describe("Changed at"),
  event_time: isoText.nullable().describe("Event happened at"),
  expires_at: isoText.nullable().describe("Expires at"),
  superseded_by: idView.nullable().describe("Replaced by this id"),
  score: z.number().optional().describe("Recall relevance"),
});

/** The older fact a recalled memory replaced, when the query matched that fact (recall and search only). */
export const updateView = z.object({ replaced_id: z.string(), replaced_at: z.string() }).describe("Replaced memory");

/** A view as structuredContent carries it: the replaced fact's words stay in the text line. */
export function structuredView(v: MemoryView): z.infer<typeof recalledView> {
  if (!v.update) return v;
  return { ...v, update: { replaced_id: v.update.replaced_id, replaced_at: v.update.replaced_at } };
}

/** A recall result: a memory, and the older fact it replaced when the query matched that. */
export const recalledView = memoryView.extend({ update: updateView.optional() });
/** A memory as shown; `update.replaced_content` is for the text line only (structuredContent keeps id and date). */
export type MemoryView = z.infer<typeof memoryView> & {
  update?: z.infer<typeof updateView> & { replaced_content: string };
};

/** The same schema with an id: a tool returning several memories lists it once under $defs and $refs it. */
export const memoryViewRef = memoryView.meta({ id: "memory" });

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toView(m: Memory, score?: number, update?: MemoryUpdate): MemoryView {
  return {
    id: m.id,
    content: m.content,
    category: m.category,
    tags: m.tags,
    priority: m.priority,
    memory_type: m.memoryType,
    status: m.status,
    agent_id: m.agentId,
    source: m.source,
    created_at: iso(m.createdAt)!,
    updated_at: iso(m.updatedAt)!,
    event_time: iso(m.eventTime),
    expires_at: iso(m.expiresAt),
    superseded_by: m.supersededBy,
    ...(score !== undefined ? { score: Math.round(score * 1000) / 1000 } : {}),
    ...(update
      ? {
          update: {
            replaced_id: update.replacedId,
            replaced_content: update.replacedContent,
            replaced_at: iso(update.replacedAt)!,
          },
        }
      : {}),
  };
}

/** A recall result's view: the memory, its score and the older fact it replaced, if the query matched that. */
export function candidateView(c: { memory: Memory; score?: number; update?: MemoryUpdate }): MemoryView {
  return toView(c.memory, c.score, c.update);
}

function day(isoString: string): string {
  return `${isoString.slice(0, 16).replace("T", " ")} UTC`;
}

/** The words of a rendered line, in the configured locale (a Messages object fits). */
export type LineLabels = Pick<
  Messages,
  "lineSaved" | "lineEvent" | "lineId" | "lineUpdated" | "lineReplaced" | "shortDay"
>;
const ENGLISH_LABELS: LineLabels = localeMessages("en");

/** Stored text as data: JSON-quoted, so a newline or a quote in it can never start a line of its own. */
export const quoted = (text: string): string => JSON.stringify(text);

/**
 * One line per memory: `- [when · "category" · p2] "content" (id …)`. Every stored text on it (content,
 * category) is quoted as data; the rest are server values (dates, priority, status, id).
 */
export function renderLine(v: MemoryView, labels: LineLabels = ENGLISH_LABELS): string {
  const saved = labels.lineSaved(day(v.created_at));
  const when = v.event_time ? `${labels.lineEvent(day(v.event_time))}, ${saved}` : saved;
  const status = v.status === "active" ? "" : ` · ${v.status}`;
  return `- [${when} · ${quoted(v.category)} · p${v.priority}${status}] ${quoted(v.content)} (${labels.lineId(v.id)})${changeNote(v, labels, false)}`;
}

/**
 * What a line adds about a change of fact: the older fact this memory replaced (`updated 3 Nov; was:
 * "…"`), or (brief lines) for a replaced fact shown for a question about the past, until when it held.
 */
export function changeNote(v: MemoryView, labels: LineLabels = ENGLISH_LABELS, until = true): string {
  if (v.update)
    return ` (${labels.lineUpdated(labels.shortDay(Date.parse(v.update.replaced_at)), quoted(v.update.replaced_content))})`;
  // A full line says the status itself (" · superseded").
  if (until && v.status === "superseded") return ` (${labels.lineReplaced(labels.shortDay(Date.parse(v.updated_at)))})`;
  return "";
}

/**
 * The brief line of a session's first recalls: the day it happened (else was saved) and the content
 * (or the excerpt of it the stage shows), quoted as data. No id, category or priority: the
 * structured result has them, a search with `limit` shows them.
 */
export function renderBrief(v: MemoryView, text = v.content, labels: LineLabels = ENGLISH_LABELS): string {
  return `- ${(v.event_time ?? v.created_at).slice(0, 10)}: ${quoted(text)}${changeNote(v, labels)}`;
}

export function renderList(views: MemoryView[], labels: LineLabels = ENGLISH_LABELS): string {
  return views.map((v) => renderLine(v, labels)).join("\n");
}

/**
 * Stage 3 (a search): the full lines, with ids. Stages 1 and 2 (what a session is given unasked)
 * brief lines (each memory whole, or the excerpt the stage chose): the matches, then (stage 1) the
 * core profile under its own heading, then how many more relevant memories exist and how to get them.
 */
export function renderRecall(
  stage: 1 | 2 | 3,
  views: MemoryView[],
  shown: string[] | undefined,
  matches: number,
  more: number,
  m: Messages,
): string {
  if (views.length === 0) return m.nothingRemembered;
  if (stage === 3) return `${m.recallHeader(views.length)}\n${renderList(views, m)}`;
  const lines = views.map((v, i) => renderBrief(v, shown?.[i], m));
  const cut = shown?.some((text, i) => text !== views[i].content) ?? false;
  return [
    m.sessionHeader,
    ...lines.slice(0, matches),
    ...(lines.length > matches ? [m.profileHeader, ...lines.slice(matches)] : []),
    more > 0 || cut ? m.stageMore(more, cut) : "",
  ]
    .filter(Boolean)
    .join("\n");
}
