/**
 * @module router/memory-frame
 * The one system message the router puts before a conversation: the recalled memories as dated data
 * under a sentence saying they are data, not instructions. Each memory is one JSON string on its own
 * line (quotes, newlines and markup inside it are escaped, so a memory cannot close the frame or
 * pose as another line), prefixed by the day it was saved and the day it is about. The whole message
 * stays within the token budget: memories are dropped from the end (the weakest) until it fits.
 */
import { estimateTokens } from "../memory/text/token-estimate";
import type { RouterMessages } from "./router-messages";

/** What the frame shows of a memory (memory/conversation/conversation-recall.ts's RoutedMemory). */
export interface FramedMemory {
  content: string;
  createdAt: number;
  eventTime: number | null;
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function line(m: FramedMemory, text: RouterMessages): string {
  const about =
    m.eventTime !== null && day(m.eventTime) !== day(m.createdAt) ? `, ${text.about} ${day(m.eventTime)}` : "";
  return `- [${text.savedOn} ${day(m.createdAt)}${about}] ${JSON.stringify(m.content)}`;
}

export interface Frame {
  /** The system message's text; null when no memory fits (then nothing is injected). */
  content: string | null;
  /** How many memories it holds. */
  count: number;
}

export function frameMemories(memories: FramedMemory[], budgetTokens: number, text: RouterMessages): Frame {
  const lines = memories.map((m) => line(m, text));
  while (lines.length > 0) {
    const content = [text.frameIntro, "<memories>", ...lines, "</memories>"].join("\n");
    if (estimateTokens(content) <= budgetTokens) return { content, count: lines.length };
    lines.pop();
  }
  return { content: null, count: 0 };
}
