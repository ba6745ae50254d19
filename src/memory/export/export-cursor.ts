/**
 * @module memory/export/export-cursor
 * Where an export that outgrew one response goes on (docs/export-format.md, "Continuing"): the
 * filters, the part of the export it was in (memories, then entities, then relations) and the last
 * row of it sent, what was counted so far and when the export started, as base64url JSON. It names no owner — the caller's credential does — so a cursor handed
 * to another key reads that key's own memories from that point, never the first owner's. Pure.
 */
import { z } from "zod";
import { MEMORY_STATUSES } from "../contracts";
import { invalidInput } from "../errors";
import type { Keyset } from "../ports";
import type { ExportFilter } from "./export-format";

/** The export's parts in order: memory lines, entity lines, relation lines. */
export type ExportPhase = "memories" | "entities" | "relations";

export interface ExportPosition {
  filter: ExportFilter;
  phase: ExportPhase;
  /** The last memory sent (null: none yet, or a store without memories). */
  after: Keyset | null;
  /** The last entity id sent ("" before the first) and the last relation row sent (0 before the first). */
  afterEntity: string;
  afterRelation: number;
  /** Memories, events, entities and relations already sent, and the memories matching when the export started. */
  memories: number;
  events: number;
  entities: number;
  relations: number;
  total: number;
  /** The first response's time: every part reports the same export. */
  exportedAt: number;
}

const PHASES = ["memories", "entities", "relations"] as const;

const cursorSchema = z.object({
  // Version 1 cursors (before entity lines) are in the memories part.
  v: z.union([z.literal(1), z.literal(2)]),
  p: z.enum(PHASES).default("memories"),
  ae: z.string().max(100).default(""),
  ar: z.number().int().min(0).default(0),
  ec: z.number().int().min(0).default(0),
  rc: z.number().int().min(0).default(0),
  f: z.object({
    status: z.enum([...MEMORY_STATUSES, "all"]),
    category: z.string().min(1).max(50).optional(),
    since: z.number().int().optional(),
    agentId: z.string().min(1).max(200).optional(),
  }),
  a: z.tuple([z.number().int(), z.string().min(1).max(100)]).nullable(),
  m: z.number().int().min(0),
  e: z.number().int().min(0),
  n: z.number().int().min(0),
  t: z.number().int().min(0),
});

/** base64url without padding; string replacement, no pattern over the caller's text. */
function toBase64Url(text: string): string {
  const plain = btoa(String.fromCharCode(...new TextEncoder().encode(text)));
  let end = plain.length;
  while (end > 0 && plain[end - 1] === "=") end--;
  return plain.slice(0, end).replaceAll("+", "-").replaceAll("/", "_");
}

function fromBase64Url(text: string): string {
  const bytes = Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

export function encodeExportCursor(p: ExportPosition): string {
  const f = { status: p.filter.status, category: p.filter.category, since: p.filter.since, agentId: p.filter.agentId };
  const body = {
    v: 2,
    f,
    p: p.phase,
    a: p.after === null ? null : [p.after.createdAt, p.after.id],
    ae: p.afterEntity,
    ar: p.afterRelation,
    m: p.memories,
    e: p.events,
    ec: p.entities,
    rc: p.relations,
    n: p.total,
    t: p.exportedAt,
  };
  return toBase64Url(JSON.stringify(body));
}

/** The position a cursor names; a cursor this server did not write is `invalid_input` on `cursor`. */
export function decodeExportCursor(cursor: string): ExportPosition {
  let json: unknown;
  try {
    json = JSON.parse(fromBase64Url(cursor));
  } catch {
    throw invalidInput("cursor", "is not a cursor from a previous export response");
  }
  const parsed = cursorSchema.safeParse(json);
  if (!parsed.success) throw invalidInput("cursor", "is not a cursor from a previous export response");
  const c = parsed.data;
  return {
    filter: { status: c.f.status, category: c.f.category, since: c.f.since, agentId: c.f.agentId },
    phase: c.p,
    after: c.a === null ? null : { createdAt: c.a[0], id: c.a[1] },
    afterEntity: c.ae,
    afterRelation: c.ar,
    memories: c.m,
    events: c.e,
    entities: c.ec,
    relations: c.rc,
    total: c.n,
    exportedAt: c.t,
  };
}
