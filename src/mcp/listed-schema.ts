/**
 * @module mcp/listed-schema
 * What tools/list shows of a tool, per caller.
 * Inputs: zod's JSON Schema without the `$schema` line (MCP defaults to 2020-12) and without the
 * fields this caller may not send (a user key never sends `user_id`). Outputs: the shape only —
 * types, enums, required fields, open to fields added later; the zod `.describe()` texts and bounds
 * document them in the code (mcp/views.ts names the memory object, so a tool returning several lists
 * it once). Hints: readOnlyHint, and the others where they differ from MCP's defaults.
 * Validation is untouched: the listed copy validates with the original zod schema, so a hidden
 * field sent anyway still gets its clear error from the handler, and every output is checked.
 * The MCP SDK v2 reads JSON Schema through Standard Schema's `~standard.jsonSchema`, which zod lets
 * an instance override; the v1 SDK behind /sse converts with zod's own `toJSONSchema`, which takes
 * an instance's `_zod.toJSONSchema` hook: both list the very same schema, user_id hidden alike.
 */
import type { z } from "zod";
import type { ListedAnnotations, ToolAnnotations } from "./registrar";

type JsonSchema = Record<string, unknown>;
type Listing = "input" | "output";

/**
 * Keywords that say nothing a reader needs: in outputs `description`, numeric bounds (the server
 * writes those values and zod checks every output) and `additionalProperties: false` (clients should
 * accept fields added later anyway); everywhere, what zod writes for every `.int()` (the
 * safe-integer bounds) and every record (`propertyNames: {type: string}`: JSON keys are strings).
 */
function isNoise(key: string, value: unknown, listing: Listing): boolean {
  if (key === "description") return listing === "output" && typeof value === "string";
  if (key === "additionalProperties") return listing === "output" && value === false;
  if (key === "minimum" || key === "maximum")
    return typeof value === "number" && (listing === "output" || Math.abs(value) === Number.MAX_SAFE_INTEGER);
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

/**
 * The listed JSON Schema, converted once per isolate and handed out as a fresh copy each time. The
 * /mcp server is built per request (the SDK serves each request on a new McpServer), and the SDK
 * converts a tool's output schema on every tools/call: zod's conversion plus `lean` cost about a
 * millisecond per call (docs/benchmarks.md, "Small stores"), for the same schema every time. A copy,
 * because the caller owns what it gets (the SDK may wrap or change it).
 */
function converted(convert: () => JsonSchema): () => JsonSchema {
  let text: string | undefined;
  return () => JSON.parse((text ??= JSON.stringify(convert())));
}

type Target = Parameters<z.ZodObject["~standard"]["jsonSchema"]["input"]>[0];

/** `convert` memoised per conversion target (the options' only field zod reads here). */
function perTarget(convert: (options: Target) => JsonSchema): (options: Target) => JsonSchema {
  const byTarget = new Map<string, () => JsonSchema>();
  return (options) => {
    const key = JSON.stringify(options ?? null);
    let get = byTarget.get(key);
    if (!get) byTarget.set(key, (get = converted(() => convert(options))));
    return get();
  };
}

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
      input: perTarget((options) => lean(standard.jsonSchema.input(options), listing, hidden)),
      output: perTarget((options) => lean(standard.jsonSchema.output(options), listing, hidden)),
    },
  };
  // SDK v1 converts for draft-07 and writes that `$schema` line itself: this hook hands it the very
  // schema /mcp lists, and `$schema: undefined` takes the line out again (zod copies the hook's keys
  // over its own, then serialises, which drops an undefined).
  const draft2020 = converted(() => lean(standard.jsonSchema[listing]({ target: "draft-2020-12" }), listing, hidden));
  copy._zod.toJSONSchema = () => ({ ...draft2020(), $schema: undefined });
  byKey.set(key, copy);
  return copy;
}

/**
 * Tool hints as listed: `readOnlyHint` always (the one clients gate confirmations on); the others
 * only where they differ from MCP's defaults (2025-11-25) and mean something — `destructiveHint` and
 * `idempotentHint` only for a tool that writes, as the spec reads them. The tool files state all four.
 */
const HINT_DEFAULTS = { destructiveHint: true, idempotentHint: false, openWorldHint: true };

export function listedAnnotations(a: ToolAnnotations): ListedAnnotations {
  const listed: ListedAnnotations = { readOnlyHint: a.readOnlyHint };
  for (const hint of ["destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    const meaningful = hint === "openWorldHint" || !a.readOnlyHint;
    if (meaningful && a[hint] !== HINT_DEFAULTS[hint]) Object.assign(listed, { [hint]: a[hint] });
  }
  return listed;
}
