/**
 * @module router/memory-mode
 * What the request's `X-Hippocampus-Memory` header allows for one routed request: `on` (the
 * default: recall and save), `read` (recall, save nothing) or `off` (neither). A read-only OAuth
 * grant never saves, whatever the header says.
 */
export const MEMORY_MODES = ["on", "read", "off"] as const;
export type MemoryMode = (typeof MEMORY_MODES)[number];

/** The mode the header names (case and spaces ignored); null when it names none of them. */
export function memoryMode(header: string | null, canWrite: boolean): MemoryMode | null {
  const value = (header ?? "on").trim().toLowerCase();
  const mode = MEMORY_MODES.find((m) => m === value);
  if (mode === undefined) return null;
  return mode === "on" && !canWrite ? "read" : mode;
}
