/**
 * @module mcp/sdk-v1-registrar
 * mcp/registrar.ts over the MCP SDK v1 McpServer (@modelcontextprotocol/sdk), which only the legacy
 * /sse transport uses (mcp/legacy-sse.ts). Every call goes through the SDK's own typed register
 * methods, so the compiler checks the bridge. Goes with /sse (docs/architecture.md, "Legacy /sse and
 * the v1 SDK: retirement plan").
 */
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Completer, McpRegistrar } from "./registrar";

/** The shape with each completed argument wrapped by the SDK's `completable` (on a fresh copy: it marks the schema). */
function completedShape(shape: z.ZodRawShape, complete: Record<string, Completer> | undefined): z.ZodRawShape {
  if (!complete) return shape;
  const fields: Record<string, z.core.$ZodType> = { ...shape };
  for (const [name, completer] of Object.entries(complete)) {
    const field = shape[name];
    if (field instanceof z.ZodType)
      fields[name] = completable(field.clone(), (value, context) => completer(String(value ?? ""), context));
  }
  return fields;
}

export function sdkV1Registrar(server: McpServer): McpRegistrar {
  return {
    tool(t) {
      const { title, description, inputSchema, outputSchema, annotations } = t;
      const registered = server.registerTool(
        t.name,
        { title, description, inputSchema, outputSchema, annotations },
        (args) => t.call(args),
      );
      // v1 lists `execution: {taskSupport: "forbidden"}` on every tool, which is what its absence
      // means (MCP 2025-11-25): left out, /sse lists what /mcp lists, 40 B less a tool.
      delete registered.execution;
    },
    resource(name, uri, meta, read) {
      server.registerResource(name, uri, meta, (url) => read(url));
    },
    template(t) {
      const template = new ResourceTemplate(t.uriTemplate, { list: () => t.list(), complete: t.complete });
      server.registerResource(t.name, template, t.meta, (url, variables) => t.read(url, variables));
    },
    prompt(p) {
      // v1 takes the raw zod shape as argsSchema.
      const { title, description } = p;
      const argsSchema = completedShape(p.args, p.complete);
      server.registerPrompt(p.name, { title, description, argsSchema }, (args) => p.get(args));
    },
  };
}
