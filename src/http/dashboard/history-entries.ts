/**
 * @module http/dashboard/history-entries
 * A memory's events as a person reads them: one entry per event with a sentence in the page's
 * language, who did it (the device's label, "automatic maintenance", an operator's shard move, or
 * the imported text quoted as data), and what changed, field by field, in words — a word-level
 * diff for text, "3 → 2" for values, dates in the reader's locale and zone. Internal fields
 * (hashes, owners, importance, index stamps, epoch numbers) and the rules' internal reason strings
 * are never shown: the sentence of the event says what happened. Pure: the page renders it.
 */
import type { MemoryEvent } from "../../memory/types";
import { PASSPHRASE_KEY_ID } from "../oauth/grant-props";
import type { DashFormat } from "./dashboard-format";
import type { DashMessages } from "./dashboard-messages";
import { type DiffPart, wordDiff } from "./word-diff";

export type HistoryChange =
  | { kind: "text"; label: string; parts: DiffPart[] }
  | { kind: "value"; label: string; from: string; to: string }
  | { kind: "link"; label: string; id: string };

export interface HistoryEntry {
  at: number;
  when: string;
  title: string;
  actor: string;
  /** The actor is stored text (an import's), shown quoted as data. */
  actorQuoted: boolean;
  changes: HistoryChange[];
}

/** Fields a person may want to see change, in the order shown. Everything else is internal. */
const SHOWN = [
  "content",
  "status",
  "category",
  "tags",
  "priority",
  "memoryType",
  "eventTime",
  "expiresAt",
  "agentId",
  "source",
] as const;
type Shown = (typeof SHOWN)[number];

export interface HistoryContext {
  m: DashMessages;
  fmt: DashFormat;
  /** Labels of the person's API keys by key id (devices). */
  keyLabels: ReadonlyMap<string, string>;
}

export function actorName(actor: string, ctx: HistoryContext): { name: string; quoted: boolean } {
  const h = ctx.m.history;
  if (actor === "cron") return { name: h.actorCron, quoted: false };
  if (actor.startsWith("admin:")) return { name: h.actorOperator, quoted: false };
  if (actor.startsWith("key:")) {
    const id = actor.slice(4).split(":")[0] ?? "";
    if (id === PASSPHRASE_KEY_ID || id === "dashboard-passphrase") return { name: h.actorPassphrase, quoted: false };
    const label = ctx.keyLabels.get(id);
    if (label !== undefined) return { name: label === "" ? h.actorDevice(id) : label, quoted: label !== "" };
    return { name: h.actorDevice(id), quoted: false };
  }
  return { name: actor, quoted: true };
}

function valueText(field: Shown, value: unknown, ctx: HistoryContext): string {
  const { m, fmt } = ctx;
  if (value === null || value === undefined || value === "") return m.history.none;
  switch (field) {
    case "status":
      return m.status[String(value)] ?? String(value);
    case "priority":
      return m.priorities[String(value)] ?? String(value);
    case "memoryType":
      return m.types[String(value)] ?? String(value);
    case "tags":
      return Array.isArray(value) && value.length > 0 ? value.map(String).join(", ") : m.history.none;
    case "eventTime":
    case "expiresAt":
      return typeof value === "number" ? fmt.when(value) : String(value);
    default:
      return String(value);
  }
}

function fieldChanges(event: MemoryEvent, ctx: HistoryContext): HistoryChange[] {
  const before = (event.before ?? {}) as Record<string, unknown>;
  const after = (event.after ?? {}) as Record<string, unknown>;
  const out: HistoryChange[] = [];
  for (const field of SHOWN) {
    if (!(field in after)) continue;
    const label = ctx.m.history.fields[field];
    if (field === "content") {
      const from = typeof before.content === "string" ? before.content : null;
      const to = typeof after.content === "string" ? after.content : "";
      if (from !== null && from !== to) out.push({ kind: "text", label, parts: wordDiff(from, to, ctx.fmt.locale) });
      continue;
    }
    const from = valueText(field, before[field], ctx);
    const to = valueText(field, after[field], ctx);
    if (from !== to) out.push({ kind: "value", label, from, to });
  }
  if (typeof after.supersededBy === "string" && after.supersededBy !== "")
    out.push({ kind: "link", label: ctx.m.history.newer, id: after.supersededBy });
  return out;
}

export function historyEntries(events: MemoryEvent[], ctx: HistoryContext): HistoryEntry[] {
  return events.map((event) => {
    const actor = actorName(event.actor, ctx);
    return {
      at: event.at,
      when: ctx.fmt.when(event.at),
      title: ctx.m.history.ops[event.op],
      actor: actor.name,
      actorQuoted: actor.quoted,
      changes: event.op === "create" ? [] : fieldChanges(event, ctx),
    };
  });
}
