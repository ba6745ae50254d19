/**
 * @module access/memory-links
 * Where a memory can be seen by a person: its dashboard page. The path is the dashboard's route
 * (http/dashboard), the absolute link what tools hand to clients that cite sources (ChatGPT's
 * `search` and `fetch`): PUBLIC_URL when set, else the origin the request came to.
 */

/** The dashboard page of one memory, as a path on this deployment. */
export function memoryPath(id: string): string {
  return `/dashboard/memories/${encodeURIComponent(id)}`;
}

/** The dashboard page of one memory as an absolute URL (a path when no origin is known). */
export function memoryUrl(id: string, publicUrl: string | undefined, requestOrigin: string | undefined): string {
  const origin = publicUrl ? new URL(publicUrl).origin : requestOrigin;
  return `${origin ?? ""}${memoryPath(id)}`;
}
