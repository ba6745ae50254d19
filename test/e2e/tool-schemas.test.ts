/**
 * tools/list as every conversation of every client pays for it: size budgets (a KB read as
 * 1,000 bytes) on both transports for both kinds of key, the portability rules of the MCP Inspector's
 * `--strict` schema check (no `type` arrays, no boolean or unconstrained subschemas, no remote
 * `$ref`), no huge `pattern`, short tool descriptions, hints listed only where they differ from MCP's
 * defaults, and `user_id` listed only to app keys — with validation kept server-side.
 */
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../src/mcp/tool-list";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

type Schema = Record<string, unknown>;
type Tool = {
  name: string;
  description?: string;
  inputSchema: Schema;
  outputSchema?: Schema;
  annotations?: Record<string, boolean>;
};

// toolsList: 24,000 until a recalled memory could carry `update` (the older fact it replaced: id and
// date in structuredContent) and a partial summary its `unsaved` facts, which the list held with
// 4 bytes to spare; every description was already at its shortest (output descriptions are not listed).
// 24,200 until memory_stats carried today's usage beside Workers Free's daily allowances
// (`daily_usage`, four fields, 24,545 B measured with it): 24,600.
const BUDGET = { inputSchemas: 8_000, toolsList: 24_600, patternChars: 100, sentences: 2 };

async function listTools(key: string, transport: "mcp" | "sse" = "mcp"): Promise<{ tools: Tool[]; bytes: number }> {
  const client = await connect(key, { transport });
  const result = await client.listTools();
  return { tools: result.tools as Tool[], bytes: new TextEncoder().encode(JSON.stringify(result)).length };
}

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/** Keywords that constrain a value (the Inspector's list, abridged to what zod can emit). */
const CONSTRAINING = [
  "type",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "$ref",
  "properties",
  "additionalProperties",
  "items",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
];
const SUBSCHEMA_MAPS = ["properties", "$defs", "definitions", "patternProperties"];
const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SUBSCHEMAS = ["items", "additionalProperties", "propertyNames", "not", "contains"];

/** Every finding of the strict portability rules, as "path: rule". */
function portabilityFindings(node: unknown, path: string, keyword?: string): string[] {
  if (typeof node === "boolean")
    return keyword === "additionalProperties" ? [] : [`${path}: boolean schema where an object is expected`];
  if (typeof node !== "object" || node === null) return [];
  const schema = node as Schema;
  const out: string[] = [];
  if (Array.isArray(schema.type)) out.push(`${path}: type array ${JSON.stringify(schema.type)}`);
  if (typeof schema.$ref === "string" && !schema.$ref.startsWith("#")) out.push(`${path}: remote $ref`);
  if (keyword !== "not" && !Object.keys(schema).some((k) => CONSTRAINING.includes(k)))
    out.push(`${path}: schema constrains nothing`);
  if (typeof schema.pattern === "string" && schema.pattern.length > BUDGET.patternChars)
    out.push(`${path}: pattern of ${schema.pattern.length} characters`);
  for (const k of SUBSCHEMA_MAPS)
    for (const [name, sub] of Object.entries((schema[k] as Schema) ?? {}))
      out.push(...portabilityFindings(sub, `${path}.${k}.${name}`, k));
  for (const k of SUBSCHEMA_LISTS)
    ((schema[k] as unknown[]) ?? []).forEach((sub, i) => {
      out.push(...portabilityFindings(sub, `${path}.${k}[${i}]`, k));
    });
  for (const k of SUBSCHEMAS) if (k in schema) out.push(...portabilityFindings(schema[k], `${path}.${k}`, k));
  return out;
}

/** Sentences: text ending in . ! ? 。！？ followed by a space or the end. */
function sentences(text: string): number {
  return text.split(/(?<=[.!?。！？])(?:\s+|$)/u).filter((s) => s.trim()).length;
}

describe("tools/list costs little context", () => {
  it.each([
    ["mcp", "app"],
    ["mcp", "user"],
    ["sse", "app"],
    ["sse", "user"],
  ] as const)("stays within the size budgets on /%s for a %s key", async (transport, kind) => {
    const key = (await createKey(kind === "app" ? { app: "bot" } : { user: uniqueUser() })).key;
    const { tools, bytes } = await listTools(key, transport);
    const input = tools.reduce((n, t) => n + bytesOf(t.inputSchema), 0);
    const output = tools.reduce((n, t) => n + bytesOf(t.outputSchema ?? {}), 0);
    // ChatGPT's search and fetch take no user_id, so app keys are not offered them.
    expect(tools.length).toBe(kind === "app" ? 12 : 14);
    expect(input, `input schemas ${input} B, output ${output} B, whole ${bytes} B`).toBeLessThan(BUDGET.inputSchemas);
    expect(bytes, `whole tools/list ${bytes} B (input ${input}, output ${output})`).toBeLessThan(BUDGET.toolsList);
  });

  it("has no finding of the strict portability rules in any input or output schema", async () => {
    for (const key of [(await createKey({ app: "bot" })).key, (await createKey({ user: uniqueUser() })).key]) {
      const { tools } = await listTools(key);
      const findings = tools.flatMap((t) => [
        ...portabilityFindings(t.inputSchema, `${t.name}.inputSchema`),
        ...portabilityFindings(t.outputSchema ?? { type: "object" }, `${t.name}.outputSchema`),
      ]);
      expect(findings).toEqual([]);
    }
  });

  it("the portability rules catch what the Inspector warns about", () => {
    expect(portabilityFindings({ type: "object", properties: { a: { type: ["string", "null"] } } }, "s")).toEqual([
      's.properties.a: type array ["string","null"]',
    ]);
    expect(portabilityFindings({ type: "object", additionalProperties: {} }, "s")).toEqual([
      "s.additionalProperties: schema constrains nothing",
    ]);
    expect(portabilityFindings({ anyOf: [true, { type: "null" }] }, "s")).toEqual([
      "s.anyOf[0]: boolean schema where an object is expected",
    ]);
    expect(portabilityFindings({ type: "string", pattern: "x".repeat(101) }, "s")).toHaveLength(1);
  });

  it("describes every tool in at most two sentences", async () => {
    const { tools } = await listTools((await createKey({ app: "bot" })).key);
    for (const t of tools) expect(sentences(t.description ?? ""), `${t.name}: ${t.description}`).toBeLessThanOrEqual(2);
    expect(sentences("One. Two! Three?")).toBe(3);
    expect(sentences('Ask "do you remember…" first; then go. Done.')).toBe(2);
  });

  it.each(["mcp", "sse"] as const)(
    "lists user_id to app keys and hides it from user keys, on /%s",
    async (transport) => {
      const app = await listTools((await createKey({ app: "bot" })).key, transport);
      const user = await listTools((await createKey({ user: uniqueUser() })).key, transport);
      for (const t of app.tools) expect(Object.keys(t.inputSchema.properties as Schema), t.name).toContain("user_id");
      for (const t of user.tools) {
        expect(Object.keys(t.inputSchema.properties as Schema), t.name).not.toContain("user_id");
        // ChatGPT's contract fixes search and fetch to one argument each (the agent comes from X-Agent-Id).
        const contract = { search: ["query"], fetch: ["id"] }[t.name];
        if (contract) expect(Object.keys(t.inputSchema.properties as Schema), t.name).toEqual(contract);
        else expect(Object.keys(t.inputSchema.properties as Schema), t.name).toContain("agent_id");
        expect(t.inputSchema.$schema).toBeUndefined();
      }
      const shared = user.tools.filter((t) => app.tools.some((a) => a.name === t.name));
      expect(shared.length).toBe(app.tools.length);
      expect(bytesOf(shared)).toBeLessThan(bytesOf(app.tools));
    },
  );

  it("/sse lists exactly what /mcp lists: no `$schema` line, no `execution` (its default)", async () => {
    for (const key of [(await createKey({ app: "bot" })).key, (await createKey({ user: uniqueUser() })).key]) {
      const mcp = await listTools(key, "mcp");
      const sse = await listTools(key, "sse");
      expect(sse.tools).toEqual(mcp.tools);
      for (const t of sse.tools) {
        expect(t.inputSchema.$schema, t.name).toBeUndefined();
        expect(t.outputSchema?.$schema, t.name).toBeUndefined();
        expect(t, t.name).not.toHaveProperty("execution");
      }
      expect(sse.bytes).toBe(mcp.bytes);
    }
  });

  it("lists each hint only where it differs from MCP's default, meaning what the tool declares", async () => {
    const defaults = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
    const { tools } = await listTools((await createKey({ user: uniqueUser() })).key, "sse");
    for (const t of tools) {
      const declared = TOOLS.find((d) => d.name === t.name)!.annotations;
      const listed = t.annotations ?? {};
      expect(listed.readOnlyHint, t.name).toBe(declared.readOnlyHint);
      const meant = { ...defaults, ...listed };
      expect(meant.openWorldHint, t.name).toBe(declared.openWorldHint);
      // The spec gives destructive/idempotent meaning only for tools that write.
      if (!declared.readOnlyHint)
        expect([meant.destructiveHint, meant.idempotentHint], t.name).toEqual([
          declared.destructiveHint,
          declared.idempotentHint,
        ]);
      for (const [hint, value] of Object.entries(listed))
        if (hint !== "readOnlyHint")
          expect(value, `${t.name}.${hint}`).not.toBe(defaults[hint as keyof typeof defaults]);
    }
  });

  it.each(["mcp", "sse"] as const)(
    "a user key that sends the hidden user_id anyway is still refused by name, on /%s",
    async (transport) => {
      const user = uniqueUser();
      const client = await connect((await createKey({ user })).key, { transport });
      const r = await callTool(client, "recall_memory", { query: "coffee", user_id: `${user}-other` });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/user_id.*not allowed with a user key/);
    },
  );
});

describe("validation is kept server-side", () => {
  it("refuses a malformed date naming the field and the rule, and accepts both ISO forms", async () => {
    const client = await connect((await createKey({ user: uniqueUser() })).key);
    const listed = (await client.listTools()).tools.find((t) => t.name === "save_memory")!;
    const eventTime = (listed.inputSchema.properties as Record<string, Schema>).event_time;
    expect(eventTime).toMatchObject({ type: "string", maxLength: 40 });
    expect(eventTime.pattern).toBeUndefined();
    for (const [field, value] of [
      ["event_time", "yesterday"],
      ["event_time", "2026-02-30"],
      ["expires_at", "2026-05-02T25:00:00Z"],
      ["expires_at", "2026-05-02T10:00:00"],
    ]) {
      const r = await callTool(client, "save_memory", { content: `Dentist appointment ${value}`, [field]: value });
      expect(r.isError, `${field}=${value}`).toBe(true);
      expect(textOf(r)).toMatch(new RegExp(`${field}.*must be an ISO 8601 date`));
    }
    const recall = await callTool(client, "recall_memory", { query: "dentist", since: "last week", limit: 5 });
    expect(textOf(recall)).toMatch(/since.*must be an ISO 8601 date/);
    for (const value of ["2026-05-02", "2026-05-02T14:30:00Z", "2026-05-02T14:30:00.5+08:00"]) {
      const ok = await callTool(client, "save_memory", { content: `Dentist on ${value}`, event_time: value });
      expect(ok.isError, `${value}: ${textOf(ok)}`).toBeFalsy();
    }
  });
});
