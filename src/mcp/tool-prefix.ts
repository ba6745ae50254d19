/**
 * @module mcp/tool-prefix
 * TOOL_PREFIX inside sentences: a "work_" instance tells the model to call work_recall_memory, not a
 * tool it does not have. The tool names come from the registry's list (mcp/tool-list.ts), so a new
 * tool is prefixed in every sentence without being named twice.
 */
import { type Locale, localeMessages, type Messages, SERVER_INSTRUCTIONS } from "./messages";
import { TOOLS } from "./tool-list";

const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));
/** A whole snake_case word (tool names are such words); `_` is no letter, so the match is linear. */
const SNAKE_WORD = /\b[a-z]+(?:_[a-z]+)+\b/g;

/** Puts TOOL_PREFIX in front of every tool name a sentence mentions. */
export function withToolPrefix(text: string, prefix: string): string {
  return prefix ? text.replace(SNAKE_WORD, (word) => (TOOL_NAMES.has(word) ? `${prefix}${word}` : word)) : text;
}

function prefixed(base: Messages, prefix: string): Messages {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base)) {
    out[key] =
      typeof value === "function"
        ? (...args: unknown[]) => withToolPrefix((value as (...a: unknown[]) => string)(...args), prefix)
        : withToolPrefix(value as string, prefix);
  }
  return out as Messages;
}

const cache = new Map<string, Messages>();

/** The sentences of `locale` with TOOL_PREFIX applied to every tool name they mention. */
export function messages(locale: Locale, toolPrefix = ""): Messages {
  const base = localeMessages(locale);
  if (!toolPrefix) return base;
  const key = `${locale}:${toolPrefix}`;
  let hit = cache.get(key);
  if (!hit) cache.set(key, (hit = prefixed(base, toolPrefix)));
  return hit;
}

/** What the server tells the model at initialize, with TOOL_PREFIX applied. */
export function serverInstructions(toolPrefix: string): string {
  return withToolPrefix(SERVER_INSTRUCTIONS, toolPrefix);
}
