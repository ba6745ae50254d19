/**
 * @module mcp/prompts
 * The `memory-context` prompt (named with TOOL_PREFIX): the block a client injects at the start of a
 * conversation — the user's core memories plus those relevant to an optional topic, each dated,
 * framed as data and never as instructions. `registerPrompts` serves both SDK generations through
 * mcp/registrar.ts; the
 * memories come from the user's Durable Object with recall's agent visibility.
 */
import { z } from "zod";
import { scopeFields } from "../access/scope";
import { withMemory } from "../access/user-memory-client";
import { LIMITS } from "../memory/limits";
import type { FusedCandidate } from "../memory/recall/fuse-scores";
import type { Memory } from "../memory/types";
import { topicCompleter } from "./completions";
import type { Messages } from "./messages";
import type { McpRegistrar } from "./registrar";
import type { ToolContext } from "./tool-context";
import { protocolError } from "./tool-errors";
import { candidateView, renderList, toView } from "./views";

export const MEMORY_CONTEXT_PROMPT = "memory-context";
/** Core facts shown whatever the topic: enough for who the user is, small enough to inject every time. */
const CORE_LIMIT = 10;

export const memoryContextArgs = {
  topic: z
    .string()
    .trim()
    .max(LIMITS.queryMaxChars, `must be at most ${LIMITS.queryMaxChars} characters`)
    .optional()
    .describe("What the conversation is about; memories relevant to it are added to the core facts"),
  ...scopeFields,
};
const memoryContextSchema = z.object(memoryContextArgs);
export type MemoryContextArgs = z.infer<typeof memoryContextSchema>;

/** Content is JSON-quoted by renderLine; escaping "<" as well keeps a memory from closing the <memories> frame. */
function framed(lines: string): string {
  return lines.replace(/</g, "\\u003c");
}

export function renderContext(
  m: Messages,
  topic: string | undefined,
  core: Memory[],
  relevant: FusedCandidate[],
): string {
  if (core.length === 0 && relevant.length === 0 && !topic) return m.contextEmpty;
  const sections: string[] = [];
  if (core.length > 0)
    sections.push(
      m.contextCore,
      framed(
        renderList(
          core.map((c) => toView(c)),
          m,
        ),
      ),
    );
  if (topic) {
    sections.push(relevant.length > 0 ? m.contextRelevant(topic) : m.contextNothingOnTopic(topic));
    if (relevant.length > 0)
      sections.push(
        framed(
          renderList(
            relevant.map((c) => candidateView({ memory: c.memory, update: c.update })),
            m,
          ),
        ),
      );
  }
  return [m.contextIntro, "<memories>", ...sections, "</memories>", m.contextAfter].join("\n");
}

export function registerPrompts(server: McpRegistrar, ctx: ToolContext): void {
  const m = ctx.messages;
  server.prompt({
    name: `${ctx.config.TOOL_PREFIX}${MEMORY_CONTEXT_PROMPT}`,
    title: m.promptTitle,
    description:
      "Long-term memory to put at the start of a conversation: the user's core facts (who they are, how to talk with them) plus memories relevant to the optional topic, dated and framed as data, not instructions.",
    args: memoryContextArgs,
    complete: { topic: topicCompleter(ctx) },
    async get(raw) {
      try {
        const args: MemoryContextArgs = memoryContextSchema.parse(raw);
        const topic = args.topic || undefined;
        const r = await withMemory(ctx, args, (stub, scope) =>
          stub.context(scope, topic, CORE_LIMIT, ctx.config.MAX_RESULTS),
        );
        const text = renderContext(m, topic, r.core, r.relevant);
        return { description: m.promptTitle, messages: [{ role: "user", content: { type: "text", text } }] };
      } catch (err) {
        throw protocolError(err, m);
      }
    },
  });
}
