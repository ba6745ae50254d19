/**
 * @module scripts/lib/stress-fuzz-cases
 * Malformed requests for the reliability run, generated from a seed: broken JSON and JSON-RPC,
 * wrong types, missing and extra fields, huge and empty strings, control characters, lone
 * surrogates, deep nesting, ReDoS inputs past their limits, bad ids and cursors, oversize bodies —
 * against /mcp, the legacy /sse message endpoint, /v1/import and the OAuth routes. Every case is
 * certainly invalid (one sure mutation of a valid call), so each must be refused. Pure.
 */
import type { Rng } from "./stress-prng.ts";

export type FuzzRoute = "mcp" | "sse" | "import" | "oauth";
/** Which credential the case carries: the fuzz person's key, the fuzz app's key, none or a forged one. */
export type FuzzAuth = "user" | "app" | "none" | "forged";

export interface FuzzCase {
  route: FuzzRoute;
  kind: string;
  method: "GET" | "POST";
  /** Path with query, e.g. `/mcp`, `/v1/import?user_id=x`; /sse cases get the session appended. */
  path: string;
  auth: FuzzAuth;
  contentType: string | null;
  /** Body text; `oversize` bodies are built at send time (1.1 MB). */
  body: string | null;
  oversize?: boolean;
  /** A JSON-RPC notification (no id): the server may accept it silently. */
  notification?: boolean;
  /** /sse only: post into the client's own session, one the server never issued, or none. */
  session?: "own" | "unknown" | "none";
}

const MAX = { content: 8000, query: 1000, tag: 50, id: 64, principal: 128, cursor: 200, source: 500 };
const LONE = ["\ud800", "\udfff", "a\ud83dz", "\udc00\ud800"];
const CONTROL = ["\u0000", "\u0007", "\u001b[31m", "\u007f", "a\u0000b", "\u2028"];
const JUNK_JSON = ["", "{", "}", "[", "null", "true", "42", '"x"', "[]", '{"jsonrpc":', "{'a':1}", "\u0000", "{}{}"];

/** The ReDoS review's inputs, sized past every field limit they could reach. */
export function redosInputs(repeat = 32_000): string[] {
  return [`I like ${".".repeat(repeat)}x`, `password: x${".".repeat(repeat)}a`];
}

function deepJson(depth: number): string {
  return `${"[".repeat(depth)}1${"]".repeat(depth)}`;
}

/** A valid call of each tool, to which one sure mutation is applied. */
const VALID: Record<string, Record<string, unknown>> = {
  save_memory: { content: "fuzz note about copper kettles", tags: ["fuzz"], priority: 3 },
  recall_memory: { query: "copper kettles", limit: 5 },
  update_memory: { id: "01JZZZZZZZZZZZZZZZZZZZZZZZ", content: "changed" },
  delete_memory: { id: "01JZZZZZZZZZZZZZZZZZZZZZZZ" },
  restore_memory: { id: "01JZZZZZZZZZZZZZZZZZZZZZZZ" },
  list_memories: { limit: 10 },
  forget_memories: { older_than_days: 3650, dry_run: true },
  memory_history: { id: "01JZZZZZZZZZZZZZZZZZZZZZZZ" },
  summarize_conversation: { transcript: "User: I like copper kettles" },
};

type Mutation = (rng: Rng, args: Record<string, unknown>, tool: string) => string | null;

const pickLone = (rng: Rng) => rng.pick(LONE);
const pickControl = (rng: Rng) => rng.pick(CONTROL);

/** Mutations that make any call invalid; each returns its kind, or null when it does not apply. */
const MUTATIONS: Mutation[] = [
  (rng, a) => {
    a.user_id = rng.pick([`u${pickControl(rng)}`, pickLone(rng), "x".repeat(MAX.principal + 1), "", "a b", 42]);
    return "bad-user-id";
  },
  (rng, a) => {
    a.agent_id = rng.pick([`agent${pickControl(rng)}`, `a${pickLone(rng)}`, "y".repeat(MAX.principal + 1), "", {}]);
    return "bad-agent-id";
  },
  (rng, a, tool) => {
    const field = { save_memory: "content", recall_memory: "query", summarize_conversation: "transcript" }[tool];
    if (field) delete a[field];
    else if ("id" in a) delete a.id;
    else return null;
    a[`extra_${rng.token(4)}`] = rng.pick([1, "x", null, [1], { a: 1 }]);
    return "missing-required+extra";
  },
  (rng, a, tool) => {
    const field = { save_memory: "content", recall_memory: "query", summarize_conversation: "transcript" }[tool];
    if (!field) return null;
    a[field] = rng.pick([42, null, true, ["x"], { text: "x" }, "", "   ", "\n\t "]);
    return "required-wrong-type-or-empty";
  },
  (rng, a, tool) => {
    if (tool === "save_memory") a.content = "x".repeat(MAX.content + rng.between(1, 50_000));
    else if (tool === "recall_memory") a.query = "q".repeat(MAX.query + rng.between(1, 50_000));
    else return null;
    return "huge-string";
  },
  (rng, a, tool) => {
    if (tool === "save_memory") a.content = rng.pick(redosInputs());
    else if (tool === "recall_memory") a.query = rng.pick(redosInputs(2000));
    else return null;
    return "redos-oversize";
  },
  (rng, a) => {
    if (!("id" in a)) return null;
    a.id = rng.pick([
      `01J${pickControl(rng)}`,
      pickLone(rng),
      "z".repeat(MAX.id + 1),
      "../../etc/passwd",
      "id with spaces",
      "",
      "%00",
      "'; DROP TABLE memories; --",
      12345,
    ]);
    return "bad-id";
  },
  (rng, a, tool) => {
    if (tool !== "list_memories") return null;
    a.cursor = rng.pick([
      "garbage",
      btoa("[1,2]"),
      btoa('["newest","x",5]'),
      btoa(JSON.stringify(["oldest", 1, "x"])), // a cursor of another order
      `${btoa(JSON.stringify(["newest", 1, "x"]))}${pickLone(rng)}`,
      "c".repeat(MAX.cursor + 1),
      btoa(deepJson(5000)),
      "%%%",
    ]);
    return "bad-cursor";
  },
  (rng, a, tool) => {
    const fields = FIELDS[tool];
    if (!fields) return null;
    const field = rng.pick(fields);
    a[field] = rng.pick(BAD_VALUES[field]);
    return `bad-${field}`;
  },
  (rng, a, tool) => {
    if (tool !== "save_memory" && tool !== "update_memory") return null;
    a.event_time = rng.pick(["yesterday", "2026-13-45", "1e999", `2026-01-01${pickControl(rng)}`, 0]);
    return "bad-date";
  },
  (rng, a, tool) => {
    if (tool !== "save_memory" && tool !== "update_memory") return null;
    a.tags = [`tag${pickLone(rng)}`];
    a.priority = rng.pick([0, 9]);
    return "lone-surrogate+bad-priority";
  },
  (rng, a) => {
    a.user_id = JSON.parse(deepJson(rng.between(50, 400)));
    return "deep-nesting";
  },
];

/** Fields of each tool that take a bad value below (a field a tool lacks would simply be ignored). */
const FIELDS: Record<string, string[]> = {
  save_memory: ["priority", "confidence", "tags", "memory_type", "ttl_days", "source"],
  update_memory: ["priority", "confidence", "tags", "memory_type"],
  recall_memory: ["limit", "tags", "memory_type", "since"],
  list_memories: ["limit", "tags", "status", "order"],
  forget_memories: ["older_than_days", "tags", "max_priority", "dry_run"],
  summarize_conversation: ["tags", "messages"],
};

const BAD_VALUES: Record<string, unknown[]> = {
  priority: [0, 6, 2.5, "3", -1, null],
  confidence: [-0.1, 1.1, "high", null],
  tags: ["not-an-array", [""], ["t".repeat(MAX.tag + 1)], Array(21).fill("t"), [1, 2], ["   "]],
  memory_type: ["procedural", 1, ""],
  ttl_days: [-1, 1e9, 1.5, "30"],
  source: ["s".repeat(MAX.source + 1), 5],
  limit: [0, 1000, -5, 1.5, "10"],
  since: ["last week", "2026-02-30T25:00:00Z", 5],
  status: ["zombie", 5, ""],
  order: ["sideways", 1],
  older_than_days: [-1, 1e9, "old"],
  max_priority: [0, 6, "low"],
  dry_run: ["yes", 1],
  messages: [[], "User: hi", [{ role: "user" }], [{ role: "", content: "x" }], [{ role: "user", content: 5 }]],
};

function rpc(id: unknown, method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

/** A tools/call with one sure mutation; `app` calls carry a valid user_id unless the mutation breaks it. */
export function toolCallCase(rng: Rng, auth: "user" | "app"): { body: string; kind: string } {
  const tool = rng.pick(Object.keys(VALID));
  const args: Record<string, unknown> = structuredClone(VALID[tool]);
  if (auth === "app") args.user_id = "fuzz-end-user";
  let kind: string | null = null;
  while (kind === null) kind = rng.pick(MUTATIONS)(rng, args, tool);
  return { body: rpc(rng.between(1, 1e6), "tools/call", { name: tool, arguments: args }), kind: `${tool}:${kind}` };
}

/** Broken JSON-RPC envelopes (not tool arguments). */
export function envelopeCase(rng: Rng): { body: string; kind: string; notification?: boolean } {
  const r = rng.int(12);
  const id = rng.between(1, 1e6);
  switch (r) {
    case 0:
      return { body: rng.pick(JUNK_JSON), kind: "junk-json" };
    case 1:
      return { body: JSON.stringify({ jsonrpc: "1.0", id, method: "tools/list" }), kind: "wrong-version" };
    case 2:
      return {
        body: JSON.stringify({ jsonrpc: "2.0", id, method: rng.pick([5, null, "", ["tools/list"]]) }),
        kind: "bad-method-type",
      };
    case 3:
      return {
        body: rpc(id, rng.pick(["tools/delete", "memory/drop", "admin", "__proto__"]), {}),
        kind: "unknown-method",
      };
    case 4:
      return {
        body: rpc(id, "tools/call", {
          name: rng.pick(["drop_everything", "", "save_memory ", "SAVE_MEMORY"]),
          arguments: {},
        }),
        kind: "unknown-tool",
      };
    case 5:
      return { body: rpc(id, "tools/call", rng.pick([[], "x", 5, null, { arguments: {} }])), kind: "bad-params" };
    case 6:
      return { body: rpc(rng.pick([{}, [1], true]), "tools/list", {}), kind: "bad-id-type" };
    case 7:
      return {
        body: rpc(id, "tools/call", { name: "save_memory", arguments: rng.pick(["content", [1], 7]) }),
        kind: "arguments-not-object",
      };
    case 8:
      return { body: deepJson(rng.between(1000, 100_000)), kind: "deep-json-body" };
    case 9:
      return { body: `${rpc(id, "tools/list", {}).slice(0, -1)}${pickControl(rng)}`, kind: "truncated-with-control" };
    case 10:
      return {
        body: rpc(id, "resources/read", {
          uri: rng.pick(["memory://../../x", "file:///etc/passwd", "memory://", `memory://${pickLone(rng)}`]),
        }),
        kind: "bad-resource-uri",
      };
    default:
      return {
        body: JSON.stringify({ jsonrpc: "2.0", method: "tools/call", params: { name: "save_memory", arguments: {} } }),
        kind: "notification",
        notification: true,
      };
  }
}
