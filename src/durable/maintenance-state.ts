/**
 * @module durable/maintenance-state
 * Per-user lifecycle state held by the UserMemory Durable Object: job cursors in its transactional
 * storage (they survive eviction, so a killed run resumes), and a queue that runs one maintenance
 * request at a time (a cron run and an on-demand tool never interleave their batches).
 */
import type { CursorStore } from "../memory/ports";

export class DoCursorStore implements CursorStore {
  constructor(private readonly storage: DurableObjectStorage) {}

  async get(key: string): Promise<string | null> {
    return (await this.storage.get<string>(key)) ?? null;
  }

  async put(key: string, cursor: string | null): Promise<void> {
    if (cursor === null) await this.storage.delete(key);
    else await this.storage.put(key, cursor);
  }
}
