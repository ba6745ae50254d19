/**
 * @module router/chat-request
 * The parts of an OpenAI Chat Completions request the memory router reads (model, messages, stream,
 * user), checked with zod; every other field (tools, images, response_format, temperature…) is kept
 * as sent and passed upstream untouched. Also the text of a message, whichever of OpenAI's content
 * shapes it uses (a string, or an array of parts of which only `text` parts are read).
 */
import { z } from "zod";

const contentPart = z.looseObject({ type: z.string() });
const chatMessage = z.looseObject({
  role: z.string().min(1, "must not be empty").max(32, "must be at most 32 characters"),
  content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

export const chatRequest = z.looseObject({
  model: z.string().min(1, "must not be empty").max(256, "must be at most 256 characters"),
  messages: z.array(chatMessage).min(1, "must not be empty").max(10_000, "at most 10000 messages"),
  stream: z.boolean().optional(),
  user: z.string().max(256, "must be at most 256 characters").optional(),
});
export type ChatRequest = z.infer<typeof chatRequest>;

/** The text of a message: its string content, or its `text` parts joined by blank lines. */
export function messageText(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text as string)
    .join("\n\n");
}
