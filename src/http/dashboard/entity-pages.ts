/**
 * @module http/dashboard/entity-pages
 * GET /dashboard/entities (a page of the person's entities, most mentioned first, with their
 * relations; `?cursor=` pages on) and GET /dashboard/entities/:name (one entity by name or alias:
 * its relations and the memories naming it). Reads go through the person's Durable Object, like
 * every dashboard page; two calls per page whatever the store's size.
 */
import type { Context } from "hono";
import { z } from "zod";
import { ENTITY_LIMITS } from "../../memory/entities/entity-types";
import { invalidInput, MemoryError } from "../../memory/errors";
import type { AppEnv } from "../app-env";
import { callMemory, frameOf, requireSession } from "./dashboard-context";
import { EntitiesPage, EntityPage } from "./entities-page";
import { renderPage } from "./layout";

/** Entities per page: each with a few relations, one screen on a phone to a few on a desktop. */
export const ENTITIES_PAGE_SIZE = 30;

const listQuery = z.object({ cursor: z.string().max(200).default("") });

const entityName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(ENTITY_LIMITS.nameMaxChars, `must be at most ${ENTITY_LIMITS.nameMaxChars} characters`);

export async function entitiesPage(c: Context<AppEnv>): Promise<Response> {
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  const parsed = listQuery.safeParse(c.req.query());
  if (!parsed.success) throw invalidInput("cursor", parsed.error.issues[0].message);
  const cursor = parsed.data.cursor;
  const page = await callMemory(c, session, (stub, scope) =>
    stub.listEntities(scope, { limit: ENTITIES_PAGE_SIZE, cursor: cursor || null }),
  );
  const ids = page.entities.map((e) => e.id);
  const relations =
    ids.length === 0 ? [] : await callMemory(c, session, (stub, scope) => stub.entityRelations(scope, ids));
  return renderPage(
    c,
    EntitiesPage({
      frame: frameOf(c, "entities", session),
      entities: page.entities,
      relations,
      cursor,
      nextCursor: page.nextCursor,
    }),
  );
}

export async function entityPage(c: Context<AppEnv>): Promise<Response> {
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  const parsed = entityName.safeParse(c.req.param("name"));
  if (!parsed.success) throw invalidInput("name", parsed.error.issues[0].message);
  const frame = frameOf(c, "entities", session);
  const found = await callMemory(c, session, (stub, scope) =>
    stub.entityWithMemories(scope, parsed.data, ENTITY_LIMITS.detailMemories),
  );
  if (!found) throw new MemoryError("not_found", frame.m.entities.notFound);
  return renderPage(c, EntityPage({ frame, entity: found.entity, memories: found.memories }));
}
