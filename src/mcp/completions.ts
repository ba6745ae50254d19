/**
 * @module mcp/completions
 * Argument completion (MCP `completion/complete`) from the person's own memory: the
 * memory-context prompt's `topic` from their categories (every one in use) and the tags of their
 * most recent memories, the `memory://{id}` template's `id` from their most recent memory ids.
 * Matches by prefix first, then anywhere, case-insensitively; most used first. A completion is a
 * hint while typing: any failure (an app key without user_id, an unavailable object) answers no
 * values instead of an error. Reads go through the caller's Durable Object with their visibility.
 */
import { withMemory } from "../access/user-memory-client";
import { LIMITS } from "../memory/limits";
import type { Completer } from "./registrar";
import type { ToolContext } from "./tool-context";

/** Most values a completion answers (MCP's own cap). */
export const COMPLETION_MAX = 100;

/** `candidates` (with how often each is used) that match `typed`: prefix matches first, then the rest. */
export function rankCompletions(typed: string, candidates: Map<string, number>): string[] {
  const needle = typed.trim().toLowerCase();
  const byUse = [...candidates.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const prefix = byUse.filter(([v]) => v.toLowerCase().startsWith(needle));
  const inside = byUse.filter(([v]) => !v.toLowerCase().startsWith(needle) && v.toLowerCase().includes(needle));
  return [...prefix, ...inside].slice(0, COMPLETION_MAX).map(([v]) => v);
}

function count(into: Map<string, number>, value: string, by = 1): void {
  into.set(value, (into.get(value) ?? 0) + by);
}

/** The scope arguments a completion may carry (an app key names its end user in user_id). */
function scopeArgs(context: { arguments?: Record<string, string> } | undefined) {
  const args = context?.arguments ?? {};
  return { user_id: args.user_id, agent_id: args.agent_id };
}

export function topicCompleter(ctx: ToolContext): Completer {
  return async (typed, context) => {
    try {
      const args = scopeArgs(context);
      const [stats, recent] = await Promise.all([
        withMemory(ctx, args, (stub, scope) => stub.stats(scope)),
        withMemory(ctx, args, (stub, scope) => stub.list(scope, { limit: LIMITS.listLimitMax })),
      ]);
      const terms = new Map<string, number>();
      for (const [category, n] of Object.entries(stats.byCategory)) count(terms, category, n);
      for (const memory of recent.memories) for (const tag of memory.tags) count(terms, tag);
      return rankCompletions(typed, terms);
    } catch {
      return [];
    }
  };
}

/** Ids of the person's most recent memories; resources need a user key, and so does this. */
export function memoryIdCompleter(ctx: ToolContext): Completer {
  return async (typed) => {
    if (ctx.caller.principal.scope !== "user") return [];
    try {
      const page = await withMemory(ctx, {}, (stub, scope) => stub.list(scope, { limit: LIMITS.listLimitMax }));
      return rankCompletions(typed, new Map(page.memories.map((m, i) => [m.id, page.memories.length - i])));
    } catch {
      return [];
    }
  };
}
