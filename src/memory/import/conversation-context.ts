/**
 * @module memory/import/conversation-context
 * Neighbour context for imported conversations. Consecutive import lines that share a `source`
 * are one conversation; each memory's full-text row also indexes the turns around it, so a
 * question worded like the turn that asked ("What did you paint?") finds the turn that answered
 * ("Yeah, the lake sunrise last year!"). Pure.
 */
import { RETRIEVAL_WEIGHTS as W } from "../retrieval-weights";
import { turnBody } from "../text/speaker";
import { indexTokens } from "../text/tokenize";

export interface ContextLine {
  content: string;
  source: string | null;
}

/**
 * Space-joined index tokens of each line's neighbours: up to `radius` lines before and after it
 * with the same non-empty source, without their speaker labels (a name in every neighbour would
 * make every turn of a conversation match the name). "" for a line with no such neighbour.
 */
export function conversationContext(lines: ContextLine[], radius: number = W.context.radius): string[] {
  const bodies = lines.map((l) => indexTokens(turnBody(l.content)).join(" "));
  return lines.map((line, i) => {
    if (!line.source) return "";
    const parts: string[] = [];
    for (let j = Math.max(0, i - radius); j <= Math.min(lines.length - 1, i + radius); j++) {
      if (j !== i && sameRun(lines, i, j) && bodies[j]) parts.push(bodies[j]);
    }
    return parts.join(" ");
  });
}

/** Lines i and j belong to one unbroken run of the same source. */
function sameRun(lines: ContextLine[], i: number, j: number): boolean {
  const [from, to] = i < j ? [i, j] : [j, i];
  for (let k = from; k <= to; k++) if (lines[k].source !== lines[i].source) return false;
  return true;
}
