/**
 * @module storage/object/do-conversations
 * ConversationStore in the user's Durable Object SQLite: what the memory router remembers of each
 * routed conversation (memories injected, user messages saved) survives an evicted object;
 * conversations idle past the window the caller gives are forgotten on the next write.
 */
import type { ConversationState, ConversationStore } from "../../memory/ports";

export class DoConversations implements ConversationStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS router_conversations (key TEXT PRIMARY KEY, state TEXT NOT NULL, last_at INTEGER NOT NULL)",
    );
    sql.exec("CREATE INDEX IF NOT EXISTS router_conversations_last_at ON router_conversations (last_at)");
  }

  get(key: string): ConversationState | undefined {
    const row = this.sql
      .exec<{ state: string }>("SELECT state FROM router_conversations WHERE key = ?", key)
      .toArray()[0];
    return row ? (JSON.parse(row.state) as ConversationState) : undefined;
  }

  put(key: string, state: ConversationState, idleSince: number): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO router_conversations (key, state, last_at) VALUES (?, ?, ?)",
      key,
      JSON.stringify(state),
      state.lastAt,
    );
    this.sql.exec("DELETE FROM router_conversations WHERE last_at <= ? AND key <> ?", idleSince, key);
  }
}
