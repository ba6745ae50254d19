/**
 * @module mcp/views
 * Output schemas (zod, described) and converters from domain memories to what tools return, plus
 * the readable text rendering: memories shown as dated data, never as instructions.
 */
import { z } from "zod";
import { MEMORY_STATUSES, MEMORY_TYPES } from "../memory/contracts";
import type { Memory } from "../memory/types";
import { type Messages, messages } from "./messages";

export const memoryView = z.object({
  id: z.string().describe("Memory id"),
  content: z.string().describe("What is remembered"),
  category: z.string().describe("Topic"),
  tags: z.array(z.string()).describe("Labels"),
  priority: z.number().int().describe("1 = core … 5 = trivia"),
  memory_type: z.enum(MEMORY_TYPES).describe("semantic or episodic"),
  status: z.enum(MEMORY_STATUSES).describe("active, superseded, deleted, expired or quarantined"),
  agent_id: z.string().nullable().describe("Owning agent, null when shared by all the user's agents"),
  source: z.string().nullable().describe("Where it came from"),
  created_at: z.string().describe("When it was saved (ISO 8601)"),
  updated_at: z.string().describe("Last change (ISO 8601)"),
  event_time: z.string().nullable().describe("When the remembered event happened (ISO 8601)"),
  expires_at: z.string().nullable().describe("When it expires (ISO 8601)"),
  superseded_by: z.string().nullable().describe("Newer memory that replaced this one"),
  score: z.number().optional().describe("Relevance score of a recall hit"),
});
export type MemoryView = z.infer<typeof memoryView>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toView(m: Memory, score?: number): MemoryView {
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
  };
}

function day(isoString: string): string {
  return `${isoString.slice(0, 16).replace("T", " ")} UTC`;
}

/** The words of a rendered line, in the configured locale (a Messages object fits). */
export type LineLabels = Pick<Messages, "lineSaved" | "lineEvent" | "lineId">;
const ENGLISH_LABELS: LineLabels = messages("en");

/** One line per memory: `- [when · category · p2] content (id …)`. Content is quoted as data. */
export function renderLine(v: MemoryView, labels: LineLabels = ENGLISH_LABELS): string {
  const saved = labels.lineSaved(day(v.created_at));
  const when = v.event_time ? `${labels.lineEvent(day(v.event_time))}, ${saved}` : saved;
  const status = v.status === "active" ? "" : ` · ${v.status}`;
  return `- [${when} · ${v.category} · p${v.priority}${status}] ${JSON.stringify(v.content)} (${labels.lineId(v.id)})`;
}

export function renderList(views: MemoryView[], labels: LineLabels = ENGLISH_LABELS): string {
  return views.map((v) => renderLine(v, labels)).join("\n");
}
