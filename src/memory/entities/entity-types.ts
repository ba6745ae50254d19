/**
 * @module memory/entities/entity-types
 * The people, places, organisations, pets, products and events a user's memories name, and the
 * relations between them and the user. Domain types only: extraction (entity-rules.ts) produces
 * `EntityGraph`s, the EntityStore port (memory/ports.ts) keeps them per owner, recall and the reads
 * (entity-reads.ts) use them. The user is not an entity: a relation end that is the user is `USER`.
 */

export const ENTITY_KINDS = ["person", "place", "organization", "pet", "product", "event", "other"] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** A relation end that is the user themself ("my sister Ana": Ana — sister_of — user). */
export const USER = "user";
export type UserSide = typeof USER;

/** One entity of an owner, as listed (memory://entities). */
export interface Entity {
  /** Stable per owner: derived from the normalised name (entity-keys.ts). */
  id: string;
  name: string;
  kind: EntityKind;
  /** Other names the user's memories tie to it ("my sister", "sister", 「表哥」). */
  aliases: string[];
  /** Active memories that name it. */
  memoryCount: number;
  updatedAt: number;
}

/** A relation as stored: entity ids or the user on each side; the memory that states it (null: imported as given). */
export interface EntityRelation {
  subjectId: string | UserSide;
  /** snake_case verb phrase: sister_of, lives_in, works_at, cousin_of, … */
  predicate: string;
  objectId: string | UserSide;
  memoryId: string | null;
}

/** A relation of an entity, with the name of its other side (the user's is USER). */
export interface EntityRelationView extends EntityRelation {
  subjectName: string;
  objectName: string;
}

/** One entity with everything the store knows about it (memory://entity/{name}). */
export interface EntityDetail extends Entity {
  relations: EntityRelationView[];
  /** Active memories that name it, newest first, at most `ENTITY_LIMITS.detailMemories`. */
  memoryIds: string[];
}

/** An entity as extraction or an importer names it (no id, no counts). */
export interface EntityInput {
  name: string;
  kind: EntityKind;
  aliases: string[];
  /**
   * How strong the evidence for `kind` is (kind-cues.ts KIND_CUE): extraction sets it; absent, the
   * kind was given by the source (an import, a caller's graph).
   */
  cue?: number;
}

/** A relation by names: each side an entity's name (as in `entities`) or USER. */
export interface RelationInput {
  subject: string | UserSide;
  predicate: string;
  object: string | UserSide;
}

/** What one memory names: extraction's answer for it. */
export interface MemoryEntities {
  memoryId: string;
  entities: EntityInput[];
  relations: RelationInput[];
  /**
   * Entities its relations name that the memory does not mention as such: the speaker of a turn
   * ("Caroline: my sister Ana…" ties Ana to Caroline). Stored, not counted as mentions of this memory.
   */
  related?: EntityInput[];
}

/**
 * What the importer of another system's graph stores for an owner (memory/entities/store-entities.ts):
 * its entities and relations as given, and which memories (already stored, the owner's) name which
 * entity, such as the official MCP memory server's observations imported as memories.
 */
export interface EntityGraph {
  entities: EntityInput[];
  relations: RelationInput[];
  mentions: { entity: string; memoryId: string }[];
}

export interface EntityPage {
  entities: Entity[];
  /** Pass back as `cursor` for the next page; null at the end. */
  nextCursor: string | null;
}

export interface EntityListOptions {
  limit: number;
  cursor?: string | null;
  /** Count only memories shared or private to this agent; undefined: every agent's (a call naming none). */
  visibleToAgent?: string;
}

export const ENTITY_LIMITS = {
  listMax: 200,
  listDefault: 50,
  /** Memory ids an entity's detail lists. */
  detailMemories: 100,
  /** Relations an entity's detail lists. */
  detailRelations: 100,
  nameMaxChars: 120,
  aliasesMax: 16,
  /** Entities and relations one graph import may carry (each a few bytes of one JSON parameter). */
  graphItemsMax: 2000,
} as const;
