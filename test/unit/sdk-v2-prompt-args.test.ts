/**
 * The /mcp server is built per request; a prompt's argument schema is built once per shape
 * (mcp/sdk-v2-registrar.ts), so two servers share it and list the same arguments.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sdkV2Registrar } from "../../src/mcp/sdk-v2-registrar";

type WithPrompts = { _registeredPrompts: Record<string, { argsSchema?: unknown }> };

function registered(shape: z.ZodRawShape): unknown {
  const server = new McpServer({ name: "t", version: "0" });
  sdkV2Registrar(server).prompt({
    name: "p",
    title: "P",
    description: "a prompt",
    args: shape,
    get: async () => ({ description: "d", messages: [] }),
  });
  return (server as unknown as WithPrompts)._registeredPrompts.p.argsSchema;
}

describe("prompt argument schemas on the v2 server", () => {
  it("builds one schema per shape and reuses it on every server", () => {
    const shape = { topic: z.string().optional().describe("what the conversation is about") };
    const first = registered(shape);
    expect(first).toBeInstanceOf(z.ZodObject);
    expect(registered(shape)).toBe(first);
    expect((first as z.ZodObject).shape).toEqual(shape);
  });

  it("gives another shape its own schema", () => {
    const a = registered({ topic: z.string() });
    const b = registered({ limit: z.number() });
    expect(a).not.toBe(b);
    expect(Object.keys((b as z.ZodObject).shape)).toEqual(["limit"]);
  });
});
