/**
 * @module mcp/listed-schema
 * What tools/list shows of a tool's zod schemas, per caller (issue 12: every conversation pays for
 * the list). Inputs: zod's JSON Schema without the `$schema` line (MCP defaults to 2020-12) and
 * without the fields this caller may not send (a user key never sends `user_id`). Outputs: the
 * shape only — types, enums, bounds, required fields, open to fields added later; the zod `.describe()` texts document them
 * in the code (mcp/views.ts names the memory object, so a tool returning several lists it once).
 * Validation is untouched: the listed copy validates with the original zod schema, so a hidden
 * field sent anyway still gets its clear error from the handler, and every output is checked.
 * The MCP SDK v2 reads JSON Schema through Standard Schema's `~standard.jsonSchema`, which zod lets
 * an instance override; the v1 SDK behind /sse converts with zod's own `toJSONSchema`, which takes
 * an instance's `_zod.toJSONSchema` hook: both list the same lean schema (draft-07 on /sse, so
 * `definitions` for `$defs`), user_id hidden alike.
 */
import type { z } from "zod";

type JsonSchema = Record<string, unknown>;
type Listing = "input" | "output";

/**
 * Keywords that say nothing a reader needs: in outputs `description`, and `additionalProperties:
 * false` (clients should accept fields added later anyway); everywhere, what zod writes for every
 * `.int()` (the safe-integer bounds) and every record (`propertyNames: {type: string}`: JSON keys
 * are strings anyway).
 */
function isNoise(key: string, value: unknown, listing: Listing): boolean {
  if (key === "description") return listing === "output" && typeof value === "string";
  if (key === "additionalProperties") return listing === "output" && value === false;
  if (key === "minimum" || key === "maximum") return Math.abs(Number(value)) === Number.MAX_SAFE_INTEGER;
  if (key === "propertyNames") return JSON.stringify(value) === '{"type":"string"}';
  return key === "$schema";
}

/**
 * `type: ["string", "null"]` (how zod writes a bare nullable) as `anyOf` branches of one type
 * each: single-type dialects (Gemini's OpenAPI subset) reject type arrays, and the MCP Inspector's
 * --strict check warns about them.
 */
function singleTypes(node: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(node.type)) return node;
  const { type, ...rest } = node;
  return { anyOf: type.map((t) => ({ type: t })), ...rest };
}

function trimmed(node: unknown, listing: Listing): unknown {
  if (Array.isArray(node)) return node.map((n) => trimmed(n, listing));
  if (typeof node !== "object" || node === null) return node;
  const entries = Object.entries(node)
    .filter(([key, value]) => !isNoise(key, value, listing))
    .map(([key, value]) => [key, VALUES.has(key) ? value : trimmed(value, listing)]);
  return singleTypes(Object.fromEntries(entries));
}

/** Keywords whose value is data, not a schema. */
const VALUES = new Set(["enum", "required", "const", "type"]);

function lean(schema: JsonSchema, listing: Listing, hidden: readonly string[]): JsonSchema {
  const rest = trimmed(schema, listing) as JsonSchema;
  if (hidden.length === 0 || typeof rest.properties !== "object" || rest.properties === null) return rest;
  const properties = Object.fromEntries(
    Object.entries(rest.properties as JsonSchema).filter(([name]) => !hidden.includes(name)),
  );
  const required = Array.isArray(rest.required) ? rest.required.filter((n) => !hidden.includes(n)) : undefined;
  return { ...rest, properties, ...(required ? { required } : {}) };
}

const cache = new WeakMap<z.ZodObject, Map<string, z.ZodObject>>();

/** A copy of `schema` listed as `listing` (leaving out `hidden` input fields); memoised per schema and variant. */
export function listedSchema<T extends z.ZodObject>(schema: T, listing: Listing, hidden: readonly string[] = []): T {
  const key = `${listing}:${hidden.join(",")}`;
  let byKey = cache.get(schema);
  if (!byKey) cache.set(schema, (byKey = new Map()));
  const known = byKey.get(key);
  if (known) return known as T;
  // Cloned from the def: a copy without a parent link, which zod's toJSONSchema would try to follow.
  const copy = schema.clone(schema._zod.def) as T;
  const standard = schema["~standard"];
  copy["~standard"] = {
    ...standard,
    jsonSchema: {
      input: (options) => lean(standard.jsonSchema.input(options), listing, hidden),
      output: (options) => lean(standard.jsonSchema.output(options), listing, hidden),
    },
  };
  // SDK v1 converts for draft-07 (and writes that `$schema` line itself): shared shapes go under `definitions`.
  copy._zod.toJSONSchema = () => lean(standard.jsonSchema[listing]({ target: "draft-07" }), listing, hidden);
  byKey.set(key, copy);
  return copy;
}
