/**
 * @module mcp/tools/summarize-conversation
 * summarize_conversation: a transcript (text or messages) becomes memories through the same write
 * pipeline as save_memory; the answer lists every extracted fact with what happened to it.
 */
import { z } from "zod";
import { requireWrite, scopeFields } from "../../access/scope";
import { withMemory } from "../../access/user-memory-client";
import { summarizeInput, WRITE_OUTCOMES } from "../../memory/contracts";
import { LIMITS } from "../../memory/limits";
import type { FactOutcome } from "../../memory/write/summarize-conversation";
import { type Messages, outcomeSentence } from "../messages";
import { defineTool } from "../tool-definition";
import { count, idView, indexedLaterView, reasonView, redactedView } from "../views";

const outcome = z.object({
  content: z
    .string()
    .describe("The fact as stored, or as extracted when not stored (secrets redacted); empty when quarantined"),
  category: z.string().describe("Category it was saved under"),
  status: z.enum(WRITE_OUTCOMES).describe("created, merged, superseded (older ones), quarantined or rejected"),
  id: idView.nullable().describe("Id of the created or merged-into memory; null when rejected"),
  superseded_ids: z.array(z.string()).describe("Older memories this fact replaced"),
  redacted: redactedView,
  reason: reasonView.nullable().describe("Why it was merged, superseded, quarantined or rejected"),
  turn: count.nullable().describe("1-based number of the message it came from; null if unknown"),
  indexed_later: indexedLaterView,
});

function outcomeLine(o: FactOutcome, m: Messages): string {
  const what = `${outcomeSentence(m, o)}${o.correctsTurns.length > 0 ? ` ${m.correctsEarlier(o.correctsTurns)}` : ""}`;
  return `- ${JSON.stringify(o.content)} — ${what}${o.id ? ` (${m.lineId(o.id)})` : ""}${o.indexedLater ? ` ${m.indexedLaterNote}` : ""}`;
}

export const summarizeConversationTool = defineTool({
  name: "summarize_conversation",
  title: "Remember a conversation",
  description:
    "Save the lasting facts the user stated in a conversation, typically at its end. Pass labelled lines or messages; duplicates merge, secrets are redacted.",
  input: summarizeInput.extend({ ...scopeFields }),
  output: z.object({
    source: z.string().describe("Source recorded on every memory; forget_memories with this source removes them"),
    messages: count.describe("Messages read"),
    extracted: count.describe("Facts found in the user's turns"),
    outcomes: z.array(outcome).describe("One entry per saved fact, in transcript order"),
    unsaved: z
      .array(z.string())
      .describe(
        "Facts found but not saved (a request limit stopped it), secrets redacted: call again to save them, never twice",
      ),
    truncated: z
      .boolean()
      .describe(`True when more than ${LIMITS.factsPerTranscriptMax} facts were found and only the first were saved`),
    redacted: redactedView.describe("Secrets removed from the transcript before anything read it"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, args) {
    requireWrite(ctx);
    const r = await withMemory(ctx, args, (stub, scope) => stub.summarize(scope, args));
    const m = ctx.messages;
    const found = r.outcomes.length + r.unsaved.length;
    const truncated = r.extracted > found;
    const lines =
      found === 0
        ? [m.summarizedNone(r.messages)]
        : [m.summarized(found, r.messages, r.source), ...r.outcomes.map((o) => outcomeLine(o, m))];
    if (r.unsaved.length > 0)
      lines.push(m.summarizedUnsaved(r.outcomes.length, found), ...r.unsaved.map((u) => `- ${JSON.stringify(u)}`));
    if (truncated) lines.push(m.summarizedTruncated(found, r.extracted));
    if (r.redactions.length) lines.push(m.redacted(r.redactions.map((x) => x.kind).join(", ")));
    return {
      structured: {
        source: r.source,
        messages: r.messages,
        extracted: r.extracted,
        unsaved: r.unsaved,
        truncated,
        redacted: r.redactions,
        outcomes: r.outcomes.map((o) => ({
          content: o.content,
          category: o.category,
          status: o.status,
          id: o.id,
          superseded_ids: o.supersededIds,
          redacted: o.redactions,
          reason: o.reason,
          turn: o.turn,
          indexed_later: o.indexedLater,
        })),
      },
      text: lines.join("\n"),
    };
  },
});
