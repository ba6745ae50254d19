/**
 * @module mcp/tools/save-memory
 * save_memory: store something worth remembering through the write pipeline and say what happened.
 */
import { z } from "zod";
import { requireWrite, scopeFields } from "../../access/scope";
import { withMemory } from "../../access/user-memory-client";
import { saveInput, WRITE_OUTCOMES } from "../../memory/contracts";
import { awaitsIndex } from "../../memory/indexing";
import { outcomeSentence } from "../messages";
import { defineTool } from "../tool-definition";
import { idView, indexedLaterView, memoryView, reasonView, redactedView, renderLine, toView } from "../views";

const output = z.object({
  status: z.enum(WRITE_OUTCOMES).describe("created, merged, superseded, quarantined or rejected"),
  id: idView.nullable().describe("Id of the stored (or merged-into) memory; null when rejected"),
  memory: memoryView.nullable().describe("The memory as stored"),
  superseded_ids: z.array(z.string()).describe("Older memories this one replaced"),
  redacted: redactedView,
  reason: reasonView.nullable().describe("Why it was merged, superseded, quarantined or rejected"),
  replayed: z.boolean().describe("True when this answers a retried idempotency_key and nothing was written"),
  indexed_later: indexedLaterView,
});

export const saveMemoryTool = defineTool({
  name: "save_memory",
  title: "Save a memory",
  description:
    "Remember a preference, a fact about themself, a habit, a goal or a plan of the user: one per call, in their words and language. Duplicates merge, contradicted facts are superseded, secrets redacted.",
  input: saveInput.extend({ ...scopeFields }),
  output,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, args) {
    requireWrite(ctx);
    const r = await withMemory(ctx, args, (stub, scope) => stub.save(scope, args));
    const m = ctx.messages;
    const view = r.memory ? toView(r.memory) : null;
    const later = r.memory !== null && awaitsIndex(r.memory);
    const lines = [
      outcomeSentence(m, r),
      later ? m.indexedLater : "",
      r.redactions.length ? m.redacted(r.redactions.map((x) => x.kind).join(", ")) : "",
      view ? renderLine(view, m) : "",
      r.replayed ? m.replayed : "",
    ];
    return {
      structured: {
        status: r.status,
        id: r.id,
        memory: view,
        superseded_ids: r.supersededIds,
        redacted: r.redactions,
        reason: r.reason,
        replayed: r.replayed,
        indexed_later: later,
      },
      text: lines.filter(Boolean).join("\n"),
    };
  },
});
