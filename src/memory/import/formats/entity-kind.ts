/**
 * @module memory/import/formats/entity-kind
 * Another system's free-text entity type ("Person", "company", "city", "dog") → one of the entity
 * kinds this store keeps (memory/entities/entity-types.ts ENTITY_KINDS); anything unknown is
 * `other`. A word lookup, no pattern over the caller's text. Pure.
 */
import { ENTITY_KINDS, type EntityKind } from "../../entities/entity-types";

const WORDS: Record<Exclude<EntityKind, "other">, string[]> = {
  person: ["people", "human", "user", "contact", "friend", "family", "individual", "人", "人物"],
  place: ["location", "city", "country", "town", "address", "region", "venue", "地点", "城市"],
  organization: [
    "organisation",
    "org",
    "company",
    "business",
    "team",
    "school",
    "employer",
    "institution",
    "组织",
    "公司",
  ],
  pet: ["animal", "dog", "cat", "宠物"],
  product: ["tool", "software", "device", "app", "project", "产品"],
  event: ["meeting", "trip", "occasion", "活动", "事件"],
};

const KIND_OF = new Map<string, EntityKind>();
for (const kind of ENTITY_KINDS) KIND_OF.set(kind, kind);
for (const [kind, words] of Object.entries(WORDS)) for (const w of words) KIND_OF.set(w, kind as EntityKind);

export function entityKind(entityType: unknown): EntityKind {
  if (typeof entityType !== "string") return "other";
  const word = entityType.trim().toLowerCase().replaceAll("_", " ");
  return KIND_OF.get(word) ?? KIND_OF.get(word.endsWith("s") ? word.slice(0, -1) : word) ?? "other";
}
