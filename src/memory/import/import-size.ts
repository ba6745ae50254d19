/**
 * @module memory/import/import-size
 * How many items one import request carries, for the CPU cap (platform-limits/cpu-sizing.ts): every
 * memory line, every history event those lines bring, and every part of the entity graph (entities,
 * their other names, relations, and what each memory names and states). Each is parsed, validated and
 * written by the request, so each counts; a request of three lines and three thousand events is not
 * three lines' work. Pure.
 */
import type { ImportGraph } from "./import-graph";
import type { NumberedLine } from "./import-line";

export interface ImportSize {
  lines: number;
  /** History events the lines carry (an export's `history`). */
  history: number;
  /** Entities, aliases, relations, and the names and relations each memory states. */
  graph: number;
  total: number;
}

export function importSize(lines: NumberedLine[], graph?: ImportGraph): ImportSize {
  let history = 0;
  for (const l of lines) history += l.input.history?.length ?? 0;
  let parts = 0;
  if (graph) {
    for (const e of graph.entities) parts += 1 + e.aliases.length;
    parts += graph.relations.length;
    for (const s of graph.stated) parts += s.entities.length + s.relations.length;
  }
  return { lines: lines.length, history, graph: parts, total: lines.length + history + parts };
}
