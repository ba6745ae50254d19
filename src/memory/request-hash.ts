/**
 * @module memory/request-hash
 * A stable hash of a request's fields, so an idempotency key can be tied to the request it was
 * first used for. Keys are sorted at every depth (the same fields in another order are the same
 * request); the idempotency key itself is left out.
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => k !== "idempotency_key" && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

/** Lower-case hex SHA-256 of the canonical JSON of `request`. */
export async function requestHash(request: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(canonical(request)));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}
