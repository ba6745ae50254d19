/**
 * @module mcp/entity-views
 * The owner's entities as resource text (memory://entities, memory://entity/{name}). Every stored
 * text (names, aliases, predicates, memory content) is JSON-quoted as data, so a name holding a
 * newline, a quote or an instruction can never start a line of its own; kinds, counts and URIs are
 * server values. Pure.
 */

import type { EntityWithMemories } from "../memory/entities/entity-memories";
import type { Entity, EntityRelationView } from "../memory/entities/entity-types";
import { USER } from "../memory/entities/entity-types";
import type { Messages } from "./messages";
import { quoted, renderList, toView } from "./views";

export const ENTITIES_URI = "memory://entities";
export const ENTITY_URI_TEMPLATE = "memory://entity/{name}";

/** The entity's resource: its name percent-encoded, so a "/" or a space stays inside the variable. */
export function entityUri(name: string): string {
  return `memory://entity/${encodeURIComponent(name)}`;
}

/** `- "Ana" · person · 3 memories · also called "my sister", "姐姐" (memory://entity/Ana)` */
export function renderEntityLine(e: Entity, m: Messages): string {
  const aliases = e.aliases.length > 0 ? ` · ${m.entityAliases} ${e.aliases.map(quoted).join(", ")}` : "";
  return `- ${quoted(e.name)} · ${m.entityKind(e.kind)} · ${m.entityCount(e.memoryCount)}${aliases} (${entityUri(e.name)})`;
}

export function renderEntities(entities: Entity[], more: boolean, m: Messages): string {
  if (entities.length === 0) return m.entitiesNone;
  return [m.resourceEntitiesHeader(entities.length, more), ...entities.map((e) => renderEntityLine(e, m))].join("\n");
}

const side = (id: string, name: string, m: Messages) => (id === USER ? m.entityUser : quoted(name));

/** `- "Ana" · "sister_of" · the user` */
export function renderRelation(r: EntityRelationView, m: Messages): string {
  return `- ${side(r.subjectId, r.subjectName, m)} · ${quoted(r.predicate)} · ${side(r.objectId, r.objectName, m)}`;
}

export function renderEntity(found: EntityWithMemories, m: Messages): string {
  const { entity, memories } = found;
  const lines = [m.entityHeader(quoted(entity.name), m.entityKind(entity.kind))];
  if (entity.aliases.length > 0) lines.push(`${m.entityAliases}: ${entity.aliases.map(quoted).join(", ")}`);
  if (entity.relations.length > 0)
    lines.push(m.entityRelations(entity.relations.length), ...entity.relations.map((r) => renderRelation(r, m)));
  if (memories.length > 0)
    lines.push(
      m.entityMemories(memories.length),
      renderList(
        memories.map((r) => toView(r)),
        m,
      ),
    );
  return lines.join("\n");
}
