/**
 * @module memory/entities/kind-cues
 * How sure a kind is, and which kind an entity keeps when one memory's mentions disagree. Every kind
 * extraction guesses comes with the strength of the cue behind it: a bare preposition or the lexicon
 * ("in Bergen", "Rust") is weak, a verb frame ("lives in", "launched", "works at") is context, a
 * relation word, a title or a name's own suffix ("my sister Ana", "Dr Lee", "Acme Corp") is a
 * relation, and a kind an import or a caller gives is given. Within a memory the strongest cue wins
 * (the first among equals), and `other` (no cue) never replaces a kind. Pure.
 */
import type { EntityInput, EntityKind } from "./entity-types";

export const KIND_CUE = {
  /** No evidence: the kind is `other`. */
  none: 0,
  /** A bare preposition, the lexicon, or a verb people do after the name ("in X", "X works"). */
  weak: 1,
  /** A verb frame before the name ("moved to X", "launched X", "works at X"). */
  context: 2,
  /** A relation word, a title or the name's own suffix ("my dog X", "Dr X", "X University"). */
  relation: 3,
  /** Given by the source: another system's entity type, an export's entity line, a caller's graph. */
  given: 4,
} as const;

/** An entity's cue: `other` has none; a kind without a cue was given by its source. */
export function cueOf(e: Pick<EntityInput, "kind" | "cue">): number {
  if (e.kind === "other") return KIND_CUE.none;
  return e.cue ?? KIND_CUE.given;
}

/** `into` takes `from`'s kind and cue when `from`'s cue is strictly stronger. */
export function keepStronger(into: EntityInput, from: { kind: EntityKind; cue?: number }): void {
  if (cueOf(from) <= cueOf(into)) return;
  into.kind = from.kind;
  into.cue = cueOf(from);
}
