/**
 * @module memory/write/turn-attribution
 * Which message of a conversation an extracted fact came from. The rules extractor knows (it reads
 * one message at a time); a model that paraphrases does not, so its facts are attributed to the
 * user message sharing the most index tokens with them. Pure.
 */
import type { ExtractedFact } from "../ports";
import { indexTokens } from "../text/tokenize";

/** Least share of a fact's tokens a message must hold to be named its source. */
const MIN_OVERLAP = 0.5;

/** 1-based number of the user message the fact came from, or null when no message clearly holds it. */
export function attributeTurn(fact: ExtractedFact, messages: { role: string; content: string }[]): number | null {
  if (fact.turn !== undefined && messages[fact.turn]?.role === "user") return fact.turn + 1;
  const wanted = new Set(indexTokens(fact.content));
  if (wanted.size === 0) return null;
  let best: { turn: number; share: number } | null = null;
  for (const [i, m] of messages.entries()) {
    if (m.role !== "user") continue;
    const have = new Set(indexTokens(m.content));
    let shared = 0;
    for (const t of wanted) if (have.has(t)) shared++;
    const share = shared / wanted.size;
    if (share >= MIN_OVERLAP && (best === null || share > best.share)) best = { turn: i + 1, share };
  }
  return best?.turn ?? null;
}
