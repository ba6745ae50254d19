/**
 * @module memory/import/screen-graph
 * An imported entity graph screened as a save screens text (the label rules already held at the
 * door, formats/): every name, alias and predicate redacted (the same text redacts the same way, so
 * a relation or a memory still names the entity it named), then put to the injection detector. An
 * entity whose name reads as an instruction is dropped with everything naming it (its aliases, its
 * relations, the memories' mentions of it), as are an alias or a relation that reads as one: an
 * entity has no quarantine a person could release it from, and its name would reach every view
 * (memory://entities, completions, the dashboard) and every model reading them. Pure.
 */
import type { EntityInput, RelationInput } from "../entities/entity-types";
import { USER } from "../entities/entity-types";
import { detectInjection } from "../write/injection-detector";
import { redactText } from "../write/redact-secrets";
import type { ImportGraph } from "./import-graph";

export interface ScreenedGraph {
  graph: ImportGraph;
  /** Entities, aliases and relations (given or stated) left out: an instruction, or naming one. */
  dropped: number;
}

/** A name, alias or predicate as stored: redacted; null when it reads as an instruction. */
export function screenName(text: string): string | null {
  const redacted = redactText(text);
  return detectInjection(redacted).suspicious ? null : redacted;
}

/** The entities kept (names and aliases screened), the names dropped, and how many items went. */
export function screenEntities(entities: EntityInput[]): {
  kept: EntityInput[];
  droppedNames: Set<string>;
  dropped: number;
} {
  const kept: EntityInput[] = [];
  const droppedNames = new Set<string>();
  let dropped = 0;
  for (const e of entities) {
    const name = screenName(e.name);
    if (name === null) {
      droppedNames.add(e.name);
      dropped++;
      continue;
    }
    const aliases = e.aliases.map(screenName).filter((a): a is string => a !== null);
    dropped += e.aliases.length - aliases.length;
    kept.push({ ...e, name, aliases });
  }
  return { kept, droppedNames, dropped };
}

/** A relation with its ends and predicate screened; null when any of them is dropped. */
export function screenRelation(r: RelationInput, droppedNames: Set<string>): RelationInput | null {
  const end = (side: string) => (side === USER ? USER : droppedNames.has(side) ? null : screenName(side));
  const subject = end(r.subject);
  const object = end(r.object);
  const predicate = screenName(r.predicate);
  if (subject === null || object === null || predicate === null) return null;
  return { subject, predicate, object };
}

export function screenGraph(g: ImportGraph): ScreenedGraph {
  const { kept, droppedNames, dropped: droppedEntities } = screenEntities(g.entities);
  let dropped = droppedEntities;
  const relations = (list: RelationInput[]) => {
    const out = list.map((r) => screenRelation(r, droppedNames)).filter((r): r is RelationInput => r !== null);
    dropped += list.length - out.length;
    return out;
  };
  const given = relations(g.relations);
  const stated = g.stated.map((s) => ({
    externalId: s.externalId,
    entities: s.entities
      .map((n) => (droppedNames.has(n) ? null : screenName(n)))
      .filter((n): n is string => n !== null),
    relations: relations(s.relations),
  }));
  return { graph: { entities: kept, relations: given, stated }, dropped };
}
