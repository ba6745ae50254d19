/**
 * @module mcp/prompts
 * The `memory-context` prompt (named with TOOL_PREFIX): the block a client injects at the start of a
 * conversation — the user's core memories plus those relevant to an optional topic, each dated,
 * framed as data and never as instructions. `registerPrompts` serves both SDK generations; the
 * memories come from the user's Durable Object with recall's agent visibility.
 */
import { z } from "zod";
import { scopeFields } from "../access/scope";
import { withMemory } from "../access/user-memory-client";
import { LIMITS } from "../memory/limits";
import type { FusedCandidate } from "../memory/recall/fuse-scores";
import type { Memory } from "../memory/types";
import type { Messages } from "./messages";
import type { ToolContext } from "./tool-context";
import { protocolError } from "./tool-errors";
import { renderList, toView } from "./views";

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

/** The subset of McpServer.registerPrompt both SDK generations share. */
export interface PromptRegistrar {
  registerPrompt(name: string, config: Record<string, unknown>, cb: (...args: never[]) => unknown): unknown;
}

/** v2 takes a z.object as argsSchema, v1 the raw shape: the caller says which. */
export type ArgsSchemaFactory = (shape: typeof memoryContextArgs) => unknown;

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
            relevant.map((c) => toView(c.memory)),
            m,
          ),
        ),
      );
  }
  return [m.contextIntro, "<memories>", ...sections, "</memories>", m.contextAfter].join("\n");
}

export function registerPrompts(server: PromptRegistrar, ctx: ToolContext, argsSchema: ArgsSchemaFactory): void {
  const m = ctx.messages;
  server.registerPrompt(
    `${ctx.config.TOOL_PREFIX}${MEMORY_CONTEXT_PROMPT}`,
    {
      title: m.promptTitle,
      description:
        "Long-term memory to put at the start of a conversation: the user's core facts (who they are, how to talk with them) plus memories relevant to the optional topic, dated and framed as data, not instructions.",
      argsSchema: argsSchema(memoryContextArgs),
    },
    (async (args: MemoryContextArgs) => {
      try {
        const topic = args.topic || undefined;
        const r = await withMemory(ctx, args, (stub, scope) =>
          stub.context(scope, topic, CORE_LIMIT, ctx.config.MAX_RESULTS),
        );
        return {
          description: m.promptTitle,
          messages: [
            {
              role: "user" as const,
              content: { type: "text" as const, text: renderContext(m, topic, r.core, r.relevant) },
            },
          ],
        };
      } catch (err) {
        throw protocolError(err, m);
      }
    }) as never,
  );
}
