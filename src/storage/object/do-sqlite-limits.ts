/**
 * @module storage/object/do-sqlite-limits
 * The Durable Object SQLite limits this code sizes its own statements by: the one home of each
 * number, for the adapters that must stay inside them and for whatever enforces them locally.
 * Source: developers.cloudflare.com/durable-objects/platform/limits, "SQL storage limits".
 */

/**
 * "Maximum string, BLOB or table row size: 2 MB". Cloudflare's MB is 10^6 bytes (its storage
 * footnote: 1 GB = 1,000,000,000 bytes), so the smaller reading is the one that holds. It bounds
 * every value a query produces, intermediate ones included (an aggregate's string), and every row.
 */
export const DO_SQLITE_MAX_VALUE_BYTES = 2_000_000;
