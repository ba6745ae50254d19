/**
 * @module http/import-route
 * POST /v1/import — bulk import over HTTP. The body is JSON Lines (one memory per line, fields in
 * memory/import/import-line.ts), a Hippocampus export, the MCP memory server's memory.jsonl, a mem0
 * export or plain text / Markdown (`?format=`, else detected); `?user_id=` names the end user for app keys
 * (or a mem0 file's one `user_id` does: access/import-owner.ts), `?agent_id=` (or
 * X-Agent-Id) makes the memories private to an agent. The whole body is validated first: any bad
 * line answers 400 with every problem by line number and nothing is written. A valid body goes to
 * the user's Durable Object and lands in one D1 batch. `?dry_run=true` validates without writing.
 */
import type { Context } from "hono";
import { z } from "zod";
import { importScopeArgs } from "../access/import-owner";
import { requireWrite, resolveScope, scopeFields } from "../access/scope";
import { type MemoryCallContext, withMemory } from "../access/user-memory-client";
import { invalidInput } from "../memory/errors";
import { mem0UserIds } from "../memory/import/formats/mem0-format";
import { parseImportBody } from "../memory/import/formats/parse-import-body";
import { IMPORT_FORMATS } from "../memory/import/formats/raw-record";
import { importSize } from "../memory/import/import-size";
import { describeLineError } from "../memory/import/parse-import-lines";
import { checkImportCpu } from "../platform-limits/invocation";
import type { AppEnv } from "./app-env";
import { callerOf } from "./caller";

const scopeQuery = z.object({
  ...scopeFields,
  format: z
    .enum(IMPORT_FORMATS)
    .optional()
    .describe("The body's format; detected when not given (memory/import/formats/parse-import-body.ts)"),
});

function scopeArgs(c: Context<AppEnv>): z.infer<typeof scopeQuery> {
  const parsed = scopeQuery.safeParse({
    user_id: c.req.query("user_id"),
    agent_id: c.req.query("agent_id"),
    format: c.req.query("format"),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw invalidInput(String(issue.path[0] ?? "query"), issue.message);
}

export async function importRoute(c: Context<AppEnv>): Promise<Response> {
  const ctx: MemoryCallContext = { env: c.env, caller: callerOf(c) };
  requireWrite(ctx);
  const given = scopeArgs(c);
  // Who the import is for is checked before the body is read, unless an app key leaves it to the file.
  const fromFile = ctx.caller.principal.scope === "app" && given.user_id === undefined;
  if (!fromFile) resolveScope(ctx, given);
  const body = await c.req.text();
  const parsed = parseImportBody(body, given.format);
  const args = importScopeArgs(ctx.caller.principal, given, parsed.format === "mem0" ? mem0UserIds(body) : []);
  resolveScope(ctx, args);
  if (!parsed.ok) {
    const lines = parsed.errors.map((e) => ({ ...e, text: describeLineError(e) }));
    const message =
      parsed.invalidLines > 0
        ? `${parsed.invalidLines} line${parsed.invalidLines === 1 ? " is" : "s are"} invalid; nothing was imported. First: ${lines[0].text}`
        : `Nothing was imported: ${lines[0].text}`;
    return c.json({ error: "invalid_input", message, format: parsed.format, lines }, 400);
  }
  // Refused like the write it checks when one request's CPU time cannot carry that many items
  // (lines, their history events, the entity graph).
  checkImportCpu(c.var.config, importSize(parsed.lines, parsed.graph));
  // A dry run validates only: `npm run import` checks a whole file this way before writing any of it.
  if (c.req.query("dry_run") === "true")
    return c.json({ dry_run: true, format: parsed.format, valid: parsed.lines.length }, 200);
  const result = await withMemory(ctx, args, (stub, scope) => stub.import(scope, parsed.lines, parsed.graph));
  return c.json({ format: parsed.format, ...result }, 200);
}
