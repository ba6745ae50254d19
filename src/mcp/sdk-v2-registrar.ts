/**
 * @module mcp/sdk-v2-registrar
 * mcp/registrar.ts over the MCP SDK v2 McpServer (@modelcontextprotocol/server, the /mcp endpoint).
 * Every call goes through the SDK's own typed register methods, so an SDK change that breaks the
 * bridge fails the type check here.
 */
import { completable, type McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Completer, McpRegistrar } from "./registrar";

/**
 * A prompt's arguments as the schema v2 takes, built once per shape: the server is built per
 * request, and a zod object costs more to build than the rest of the prompt's registration.
 */
const argsSchemas = new WeakMap<z.ZodRawShape, z.ZodObject>();

function argsSchema(shape: z.ZodRawShape): z.ZodObject {
  let schema = argsSchemas.get(shape);
  if (!schema) argsSchemas.set(shape, (schema = z.object(shape)));
  return schema;
}

/**
 * A completable copy of `field` (completable marks the schema object it is given, and the completer
 * is the caller's own). v2 looks for the mark under `.optional()`, so an optional field is marked inside.
 */
function completableField(field: z.ZodType, completer: Completer): z.ZodType {
  const complete = (value: unknown, context?: { arguments?: Record<string, string> }) =>
    completer(String(value ?? ""), context);
  const inner: unknown = field instanceof z.ZodOptional ? field.unwrap() : null;
  if (inner instanceof z.ZodType) return completable(inner.clone(), complete).optional();
  return completable(field.clone(), complete);
}

/** The arguments with each completed one made completable. */
function completedArgs(shape: z.ZodRawShape, complete: Record<string, Completer>): z.ZodObject {
  const fields: Record<string, z.core.$ZodType> = { ...shape };
  for (const [name, completer] of Object.entries(complete)) {
    const field = shape[name];
    if (field instanceof z.ZodType) fields[name] = completableField(field, completer);
  }
  return z.object(fields);
}

export function sdkV2Registrar(server: McpServer): McpRegistrar {
  return {
    tool(t) {
      const { title, description, inputSchema, outputSchema, annotations } = t;
      server.registerTool(t.name, { title, description, inputSchema, outputSchema, annotations }, (args) =>
        t.call(args),
      );
    },
    resource(name, uri, meta, read) {
      server.registerResource(name, uri, meta, (url) => read(url));
    },
    template(t) {
      const template = new ResourceTemplate(t.uriTemplate, { list: () => t.list(), complete: t.complete });
      server.registerResource(t.name, template, t.meta, (url, variables) => t.read(url, variables));
    },
    prompt(p) {
      // v2 takes a schema (Standard Schema with JSON Schema) as argsSchema.
      const { title, description } = p;
      const schema = p.complete ? completedArgs(p.args, p.complete) : argsSchema(p.args);
      server.registerPrompt(p.name, { title, description, argsSchema: schema }, (args) => p.get(args));
    },
  };
}
