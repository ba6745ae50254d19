/**
 * @module mcp/tools/memory-history
 * memory_history: one memory's versions (event log) and its supersede chain.
 */
import { z } from "zod";
import { scopeFields } from "../../access/scope";
import { withMemory } from "../../access/user-memory-client";
import { historyInput } from "../../memory/contracts";
import type { Memory } from "../../memory/types";
import { defineTool, READ_ONLY } from "../tool-definition";
import { memoryViewRef, quoted, renderLine, toView } from "../views";

/** A memory's changed fields: text, numbers, timestamps (epoch ms), null, or lists of text (tags). */
const fields = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]));

function changedFields(p: Partial<Memory> | null): z.infer<typeof fields> | null {
  return p && Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
}

const eventView = z.object({
  op: z.string().describe("create, update, supersede, merge, delete, restore, expire, purge or quarantine"),
  at: z.string().describe("When (ISO 8601)"),
  actor: z.string().describe("Who: key, cron or system"),
  before: fields.nullable().describe("Changed fields before"),
  after: fields.nullable().describe("Changed fields after"),
});

export const memoryHistoryTool = defineTool({
  name: "memory_history",
  title: "Memory history",
  description: "How one memory changed, and what it replaced or was replaced by.",
  input: historyInput.extend({ ...scopeFields }),
  output: z.object({
    memory: memoryViewRef.describe("The memory now"),
    events: z.array(eventView).describe("Every recorded operation, oldest first"),
    supersedes: z.array(memoryViewRef).describe("Older memories this one replaced"),
    superseded_by: memoryViewRef.nullable().describe("The newer memory that replaced this one"),
  }),
  annotations: READ_ONLY,
  async run(ctx, args) {
    const r = await withMemory(ctx, args, (stub, scope) => stub.history(scope, args.id));
    const events = r.events.map((e) => ({
      op: e.op,
      at: new Date(e.at).toISOString(),
      actor: e.actor,
      before: changedFields(e.before),
      after: changedFields(e.after),
    }));
    const view = toView(r.memory);
    const m = ctx.messages;
    const lines = [renderLine(view, m), ...events.map((e) => m.historyEvent(e.at, e.op, quoted(e.actor)))];
    if (r.supersededBy) lines.push(`${m.replacedBy} ${renderLine(toView(r.supersededBy), m)}`);
    for (const s of r.supersedes) lines.push(`${m.replaces} ${renderLine(toView(s), m)}`);
    return {
      structured: {
        memory: view,
        events,
        supersedes: r.supersedes.map((m) => toView(m)),
        superseded_by: r.supersededBy ? toView(r.supersededBy) : null,
      },
      text: lines.join("\n"),
    };
  },
});
