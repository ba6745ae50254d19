/**
 * @module mcp/sdk-v2-registrar
 * mcp/registrar.ts over the MCP SDK v2 McpServer (@modelcontextprotocol/server, the /mcp endpoint).
 * Every call goes through the SDK's own typed register methods, so an SDK change that breaks the
 * bridge fails the type check here.
 */
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { McpRegistrar } from "./registrar";

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
      const template = new ResourceTemplate(t.uriTemplate, { list: () => t.list() });
      server.registerResource(t.name, template, t.meta, (url, variables) => t.read(url, variables));
    },
    prompt(p) {
      // v2 takes a schema (Standard Schema with JSON Schema) as argsSchema.
      const { title, description } = p;
      server.registerPrompt(p.name, { title, description, argsSchema: argsSchema(p.args) }, (args) => p.get(args));
    },
  };
}
