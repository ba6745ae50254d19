/**
 * @module mcp/sdk-v1-registrar
 * mcp/registrar.ts over the MCP SDK v1 McpServer (@modelcontextprotocol/sdk), which only the legacy
 * /sse transport uses (mcp/legacy-sse.ts). Every call goes through the SDK's own typed register
 * methods, so the compiler checks the bridge. Goes with /sse (docs/architecture.md, "Legacy /sse and
 * the v1 SDK: retirement plan").
 */
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { McpRegistrar } from "./registrar";

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
      const template = new ResourceTemplate(t.uriTemplate, { list: () => t.list() });
      server.registerResource(t.name, template, t.meta, (url, variables) => t.read(url, variables));
    },
    prompt(p) {
      // v1 takes the raw zod shape as argsSchema.
      const { title, description } = p;
      server.registerPrompt(p.name, { title, description, argsSchema: p.args }, (args) => p.get(args));
    },
  };
}
