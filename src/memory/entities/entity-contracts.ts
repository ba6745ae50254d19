/**
 * @module memory/entities/entity-contracts
 * zod schemas of the entity entries the service offers (memory-service.ts): a page of the owner's
 * entities, one entity by name or alias, and a graph an importer stores. The single source of truth
 * for their inputs; the surfaces (MCP resources, dashboard, importers) parse with these.
 */
import { z } from "zod";
import { isSafeLabel, LABEL_RULE } from "../limits";
import { ENTITY_KINDS, ENTITY_LIMITS, USER } from "./entity-types";

/** A name or alias prints on one line of every view: the label rules apply (memory/limits.ts). */
const name = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(ENTITY_LIMITS.nameMaxChars, `must be at most ${ENTITY_LIMITS.nameMaxChars} characters`)
  .refine(isSafeLabel, LABEL_RULE);

export const listEntitiesInput = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(ENTITY_LIMITS.listMax)
    .default(ENTITY_LIMITS.listDefault)
    .describe("Entities per page, most mentioned first"),
  cursor: z.string().max(200).nullable().optional().describe("nextCursor of the previous page"),
});
export type ListEntitiesInput = z.input<typeof listEntitiesInput>;

export const describeEntityInput = z.object({
  name: name.describe("The entity's name or one of its aliases (case and a leading 'my' do not matter)"),
});

const entityInput = z.object({
  name: name.describe("The entity's name as the user writes it"),
  kind: z.enum(ENTITY_KINDS).default("other").describe("What it is"),
  aliases: z
    .array(name)
    .max(ENTITY_LIMITS.aliasesMax)
    .default([])
    .describe("Other names that refer to it (a relation word such as 'sister', a nickname)"),
});

const relationEnd = name.describe(`An entity's name (one of \`entities\`), or "${USER}" for the user`);

export const entityGraphInput = z.object({
  entities: z.array(entityInput).max(ENTITY_LIMITS.graphItemsMax).describe("Entities to store"),
  relations: z
    .array(
      z.object({
        subject: relationEnd,
        predicate: z
          .string()
          .trim()
          .min(1)
          .max(64)
          .regex(/^[\p{L}\p{N}_ ]+$/u, "letters, digits, spaces and _ only")
          .describe("The relation, such as works_at or sister_of"),
        object: relationEnd,
      }),
    )
    .max(ENTITY_LIMITS.graphItemsMax)
    .describe("Relations between entities or with the user"),
  mentions: z
    .array(
      z.object({
        entity: name.describe("An entity's name (one of `entities`)"),
        memoryId: z.string().min(1).max(64).describe("A memory of this owner that names it"),
      }),
    )
    .max(ENTITY_LIMITS.graphItemsMax)
    .default([])
    .describe("Which stored memories name which entity (observations imported as memories)"),
});
export type EntityGraphInput = z.input<typeof entityGraphInput>;
