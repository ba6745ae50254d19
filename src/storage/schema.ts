/**
 * @module storage/schema
 * Drizzle schema of the D1 source of truth: memories, their append-only event log, API keys.
 * The FTS5 table `memories_fts` is created by a hand-written migration (drizzle-kit cannot express
 * virtual tables) and is reached through raw SQL in the D1 repo.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const memories = sqliteTable(
  "memories",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    /** `user` (a person's store) or `app:<name>` (an app's end users): memory/owner-address.ts. */
    namespace: text("namespace").notNull().default("user"),
    userId: text("user_id").notNull(),
    agentId: text("agent_id"),
    content: text("content").notNull(),
    summary: text("summary"),
    category: text("category").notNull().default("general"),
    tags: text("tags").notNull().default("[]"),
    priority: integer("priority").notNull().default(3),
    confidence: real("confidence").notNull().default(1),
    importance: real("importance").notNull().default(0.5),
    memoryType: text("memory_type").notNull().default("semantic"),
    source: text("source"),
    externalId: text("external_id"),
    derivedFrom: text("derived_from").notNull().default("[]"),
    status: text("status").notNull().default("active"),
    supersededBy: text("superseded_by"),
    contentHash: text("content_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    eventTime: integer("event_time"),
    expiresAt: integer("expires_at"),
    deletedAt: integer("deleted_at"),
    lastAccessedAt: integer("last_accessed_at"),
    accessCount: integer("access_count").notNull().default(0),
    embeddingModel: text("embedding_model"),
    indexedAt: integer("indexed_at"),
    /** Lifecycle: when passive forgetting last lowered importance (null: never; decay counts from created_at). */
    decayedAt: integer("decayed_at"),
    /** Lifecycle: when consolidation compared this memory with its neighbours (null: not yet). */
    consolidatedAt: integer("consolidated_at"),
    /** Entities: when the entities this memory names were extracted (null: due, migration 0012). */
    entitiesAt: integer("entities_at"),
  },
  (t) => [
    index("memories_owner_status_idx").on(t.accountId, t.userId, t.status),
    index("memories_owner_hash_idx").on(t.accountId, t.userId, t.contentHash),
    index("memories_owner_created_idx").on(t.accountId, t.userId, t.createdAt),
    index("memories_owner_created_id_idx").on(t.accountId, t.namespace, t.userId, t.createdAt, t.id),
    index("memories_status_expires_idx").on(t.status, t.expiresAt),
    index("memories_status_deleted_idx").on(t.status, t.deletedAt),
    // Bulk import maps lines back and skips re-imported ones by external id (findByExternalIds).
    index("memories_owner_external_idx").on(t.accountId, t.userId, t.externalId),
    // Lifecycle (docs/lifecycle.md): retention rules, and partial indexes holding only the rows a job
    // still has to visit, so the cron's "who needs work" queries stay cheap. Their WHERE terms are
    // repeated literally in storage/d1-lifecycle-queries.ts (SQLite uses a partial index only then).
    index("memories_status_type_created_idx").on(t.status, t.memoryType, t.createdAt),
    index("memories_status_category_created_idx").on(t.status, t.category, t.createdAt),
    index("memories_unindexed_idx")
      .on(t.accountId, t.userId, t.createdAt)
      .where(sql`status = 'active' AND indexed_at IS NULL`),
    index("memories_model_idx")
      .on(t.embeddingModel, t.accountId, t.userId)
      .where(sql`status = 'active' AND indexed_at IS NOT NULL`),
    index("memories_decay_due_idx")
      .on(t.decayedAt, t.createdAt, t.accountId, t.userId)
      .where(sql`status = 'active' AND access_count = 0 AND importance > 0.05`),
    index("memories_unconsolidated_idx")
      .on(t.accountId, t.userId, t.createdAt)
      .where(sql`status = 'active' AND consolidated_at IS NULL`),
    index("memories_entities_pending_idx")
      .on(t.accountId, t.namespace, t.userId, t.createdAt)
      .where(sql`status = 'active' AND entities_at IS NULL`),
  ],
);

export const memoryEvents = sqliteTable(
  "memory_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    memoryId: text("memory_id").notNull(),
    accountId: text("account_id").notNull(),
    namespace: text("namespace").notNull().default("user"),
    userId: text("user_id").notNull(),
    op: text("op").notNull(),
    before: text("before"),
    after: text("after"),
    actor: text("actor").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [
    index("memory_events_memory_idx").on(t.memoryId, t.at),
    // Migration 0010: a shard move pages through one owner's events.
    index("memory_events_owner_idx").on(t.accountId, t.namespace, t.userId, t.id),
  ],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    keyHash: text("key_hash").notNull(),
    accountId: text("account_id").notNull(),
    userId: text("user_id"),
    appName: text("app_name"),
    scope: text("scope").notNull(),
    label: text("label"),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_idx").on(t.keyHash)],
);

/** Legacy SSE sessions this server issued, each bound to the credential that opened it (http/sse-sessions.ts). */
export const sseSessions = sqliteTable(
  "sse_sessions",
  {
    id: text("id").primaryKey(),
    credential: text("credential").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("sse_sessions_created_idx").on(t.createdAt)],
);

/**
 * Entities (migration 0012, memory/entities): per owner, the entity rows, the keys (name, aliases)
 * they are looked up by, which memory names which, and the relations memories state. The link
 * tables' integer ids are local to a database: a shard move pages on them and does not copy them.
 */
const ownerColumns = () => ({
  accountId: text("account_id").notNull(),
  namespace: text("namespace").notNull(),
  userId: text("user_id").notNull(),
});

export const entities = sqliteTable(
  "entities",
  {
    ...ownerColumns(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    kind: text("kind").notNull().default("other"),
    /** KIND_CUE of the evidence behind `kind` (migration 0015): only a stronger cue replaces it. */
    kindCue: integer("kind_cue").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.namespace, t.userId, t.id] })],
);

export const entityKeys = sqliteTable(
  "entity_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ...ownerColumns(),
    key: text("key").notNull(),
    entityId: text("entity_id").notNull(),
    /** The alias as written ("my sister"); the key is its lookup form ("sister"). */
    label: text("label").notNull(),
  },
  (t) => [
    uniqueIndex("entity_keys_owner_key_idx").on(t.accountId, t.namespace, t.userId, t.key, t.entityId),
    index("entity_keys_owner_entity_idx").on(t.accountId, t.namespace, t.userId, t.entityId),
    index("entity_keys_owner_id_idx").on(t.accountId, t.namespace, t.userId, t.id),
  ],
);

export const entityMentions = sqliteTable(
  "entity_mentions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ...ownerColumns(),
    memoryId: text("memory_id").notNull(),
    entityId: text("entity_id").notNull(),
  },
  (t) => [
    uniqueIndex("entity_mentions_owner_memory_idx").on(t.accountId, t.namespace, t.userId, t.memoryId, t.entityId),
    index("entity_mentions_owner_entity_idx").on(t.accountId, t.namespace, t.userId, t.entityId),
    index("entity_mentions_owner_id_idx").on(t.accountId, t.namespace, t.userId, t.id),
  ],
);

export const entityRelations = sqliteTable(
  "entity_relations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ...ownerColumns(),
    /** The memory stating it; '' for a relation imported as given. */
    memoryId: text("memory_id").notNull().default(""),
    subjectId: text("subject_id").notNull(),
    predicate: text("predicate").notNull(),
    objectId: text("object_id").notNull(),
  },
  (t) => [
    uniqueIndex("entity_relations_owner_memory_idx").on(
      t.accountId,
      t.namespace,
      t.userId,
      t.memoryId,
      t.subjectId,
      t.predicate,
      t.objectId,
    ),
    index("entity_relations_owner_subject_idx").on(t.accountId, t.namespace, t.userId, t.subjectId),
    index("entity_relations_owner_object_idx").on(t.accountId, t.namespace, t.userId, t.objectId),
    index("entity_relations_owner_id_idx").on(t.accountId, t.namespace, t.userId, t.id),
  ],
);

export type MemoryRow = typeof memories.$inferSelect;
export type NewMemoryRow = typeof memories.$inferInsert;
export type MemoryEventRow = typeof memoryEvents.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
