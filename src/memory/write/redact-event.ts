/**
 * @module memory/write/redact-event
 * A history event with every text in it redacted: each text of its before/after snapshots (content,
 * tags, source, category, reasons, …) and its actor. An import redacts the history it stores; every
 * read of history (memory_history, the dashboard's timeline, /v1/export) redacts again, so events an
 * import stored before its history was redacted whole never show a secret. Redaction of redacted
 * text changes nothing, so the read pass is safe on every event.
 */
import type { Memory, MemoryEvent } from "../types";
import { redactText } from "./redact-secrets";

/** A snapshot value with every text in it redacted (strings, and the strings of a list such as tags). */
function redactValue(v: unknown): unknown {
  if (typeof v === "string") return redactText(v);
  if (Array.isArray(v)) return v.map(redactValue);
  return v;
}

/** A snapshot with every text field redacted; null stays null. */
export function redactSnapshot(snap: Partial<Memory> | null): Partial<Memory> | null {
  if (!snap) return null;
  return Object.fromEntries(Object.entries(snap).map(([k, v]) => [k, redactValue(v)])) as Partial<Memory>;
}

export function redactEvent(e: MemoryEvent): MemoryEvent {
  return { ...e, before: redactSnapshot(e.before), after: redactSnapshot(e.after), actor: redactText(e.actor) };
}
