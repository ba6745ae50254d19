/**
 * Follows GET /v1/export's `next` cursors inside workerd, as `npm run export` does: every part's
 * lines but the `next` ones, and how many parts it took (at most 50, so a cursor loop fails a test).
 */
import { exports } from "cloudflare:workers";
import { expect } from "vitest";

export async function exportAll(key: string): Promise<{ parts: number; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  let parts = 0;
  do {
    const query: string = cursor === null ? "" : `?cursor=${encodeURIComponent(cursor)}`;
    const res = await exports.default.fetch(`http://x/v1/export${query}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    const part = (await res.text())
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const last = part.at(-1);
    cursor = last?.type === "next" ? String(last.cursor) : null;
    lines.push(...part.filter((l) => l.type !== "next"));
    parts++;
  } while (cursor !== null && parts < 50);
  return { parts, lines };
}
