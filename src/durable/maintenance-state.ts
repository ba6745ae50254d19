/**
 * @module durable/maintenance-state
 * Per-user lifecycle state held by the UserMemory Durable Object: job cursors in its transactional
 * storage (they survive eviction, so a killed run resumes). Maintenance runs on the memory service's
 * one per-user queue, with every write (memory-service.ts maintain()).
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
