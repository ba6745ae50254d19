/**
 * @module scripts/lib/server-timing
 * Reads the product's Server-Timing header (src/http/server-timing.ts) on the client side: the
 * server's own total, the D1 statements, sequential round trips and rows read and written one call
 * cost, and the rows the Durable Object's own SQLite read and wrote.
 */

export interface ServerTiming {
  /** Milliseconds per metric with a `dur`. */
  dur: Record<string, number>;
  /** D1 statements the call ran (d1-queries). */
  d1Queries: number;
  /** D1 round trips one after another (d1-sequential). */
  d1Sequential: number;
  /** Rows D1 read and wrote, from its result meta (d1-rows-read / d1-rows-written); null from a server that does not report them. */
  d1RowsRead: number | null;
  d1RowsWritten: number | null;
  /** Rows the Durable Object's own SQLite read and wrote (do-sql-rows-read / do-sql-rows-written); null when not reported. */
  doSqlRowsRead: number | null;
  doSqlRowsWritten: number | null;
}

const countOrNull = (value: string | undefined) => (value === undefined ? null : Number(value));

/** Parses `name;dur=1.2;desc="x", …`; null when the header is absent. */
export function parseServerTiming(header: string | null): ServerTiming | null {
  if (!header) return null;
  const dur: Record<string, number> = {};
  const desc: Record<string, string> = {};
  for (const entry of header.split(",")) {
    const [name, ...params] = entry.trim().split(";");
    for (const param of params) {
      const [key, value = ""] = param.split("=");
      if (key.trim() === "dur") dur[name] = Number(value);
      if (key.trim() === "desc") desc[name] = value.replace(/^"|"$/g, "");
    }
  }
  return {
    dur,
    d1Queries: Number(desc["d1-queries"] ?? 0),
    d1Sequential: Number(desc["d1-sequential"] ?? 0),
    d1RowsRead: countOrNull(desc["d1-rows-read"]),
    d1RowsWritten: countOrNull(desc["d1-rows-written"]),
    doSqlRowsRead: countOrNull(desc["do-sql-rows-read"]),
    doSqlRowsWritten: countOrNull(desc["do-sql-rows-written"]),
  };
}

/** A fetch that remembers the Server-Timing of the last POST it made (the MCP client's calls). */
export function timingFetch(): { fetch: typeof fetch; last: () => ServerTiming | null } {
  let last: ServerTiming | null = null;
  const timed: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (init?.method === "POST") last = parseServerTiming(res.headers.get("server-timing"));
    return res;
  };
  return { fetch: timed, last: () => last };
}
