/**
 * @module memory/entities/query-keys
 * The lookup keys a recall query may name an entity by (entity-keys.ts entityKey): its words and
 * runs of two or three words in English ("sister", "melanie's daughter", "bergen jazz festival"),
 * and its Han substrings of two to four characters in Chinese, which has no spaces to split a name
 * or a relation word (「表哥」「李明」) on. Only keys the owner's entities have match, so the extra
 * candidates cost one indexed lookup; the list is bounded (QUERY_KEYS_MAX).
 */
import { ENGLISH_STOP_WORDS } from "../text/stop-words";
import { entityKey } from "./entity-keys";

export const QUERY_KEYS_MAX = 160;
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]{0,39}/gu;
const HAN_RUN = /\p{Script=Han}{2,40}/gu;

function wordKeys(text: string, out: Set<string>): void {
  if (out.size >= QUERY_KEYS_MAX) return;
  const words = [...text.normalize("NFKC").toLowerCase().matchAll(WORD)].map((m) => m[0].replace(/’/g, "'"));
  for (let i = 0; i < words.length; i++) {
    const bare = words[i].replace(/'s$/u, "");
    if (!ENGLISH_STOP_WORDS.has(bare) && bare.length > 1) out.add(bare);
    if (i + 1 < words.length) out.add(`${words[i]} ${words[i + 1]}`);
    if (i + 2 < words.length) out.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  }
}

function hanKeys(run: string, out: Set<string>): void {
  const chars = [...run];
  for (let n = 2; n <= 4; n++) for (let i = 0; i + n <= chars.length; i++) out.add(chars.slice(i, i + n).join(""));
}

/** The query's candidate entity keys, in order of appearance, at most QUERY_KEYS_MAX. */
export function queryEntityKeys(query: string): string[] {
  const out = new Set<string>();
  for (const m of query.matchAll(HAN_RUN)) {
    hanKeys(m[0], out);
    if (out.size >= QUERY_KEYS_MAX) break;
  }
  wordKeys(query, out);
  return [...new Set([...out].map(entityKey))].filter((k) => k.length > 0).slice(0, QUERY_KEYS_MAX);
}
