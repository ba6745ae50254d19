/**
 * Runs in the "session-reset" vitest project: PROGRESSIVE_RESET_SECONDS=2, real clock, real sleeps
 * (see vitest.config.ts). The main project checks the 300 s default by ageing stored counters.
 */

import { env } from "cloudflare:workers";
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connectMcp = trackedConnect();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function setup(transport: "mcp" | "sse" = "mcp"): Promise<Client> {
  const client = await connectMcp((await createKey({ user: uniqueUser() })).key, { transport });
  for (const content of [
    "My name is Ada Lovelace",
    "Favourite coffee shop is Blue Bottle in Oakland",
    "Cold brew coffee gives me a headache",
  ]) {
    const saved = await callTool(client, "save_memory", { content, priority: content.startsWith("My name") ? 1 : 3 });
    expect(saved.structuredContent?.status, textOf(saved)).toBe("created");
  }
  return client;
}

async function stage(client: Client, args: Record<string, unknown> = {}): Promise<number> {
  const r = await callTool(client, "recall_memory", { query: "coffee", ...args });
  expect(r.isError, textOf(r)).toBeFalsy();
  return (r.structuredContent as { stage: number }).stage;
}

describe("progressive injection with PROGRESSIVE_RESET_SECONDS=2", () => {
  it("runs with the overridden setting", () => {
    expect(env.PROGRESSIVE_RESET_SECONDS).toBe("2");
  });

  it("answers 1, 2, 3 and, after 3 s idle, starts again at 1", async () => {
    const client = await setup();
    expect([await stage(client), await stage(client), await stage(client)]).toEqual([1, 2, 3]);
    await sleep(3000);
    expect([await stage(client), await stage(client)]).toEqual([1, 2]);
  });

  it("measures idle time from the last call: calls 1 s apart keep the session going past 2 s", async () => {
    const client = await setup();
    const stages = [await stage(client)];
    await sleep(1000);
    stages.push(await stage(client));
    await sleep(1100);
    stages.push(await stage(client));
    expect(stages).toEqual([1, 2, 3]);
  });

  it("resets each session on its own idle time", async () => {
    const client = await setup();
    expect(await stage(client, { session_id: "a" })).toBe(1);
    expect(await stage(client, { session_id: "a" })).toBe(2);
    await sleep(1200);
    expect(await stage(client, { session_id: "b" })).toBe(1);
    await sleep(1200);
    // "a" has now been idle at least 2.4 s, "b" about 1.2 s.
    expect(await stage(client, { session_id: "a" })).toBe(1);
    expect(await stage(client, { session_id: "b" })).toBe(2);
  });

  it("resets over the legacy SSE transport too", async () => {
    const client = await setup("sse");
    expect([await stage(client), await stage(client)]).toEqual([1, 2]);
    await sleep(2100);
    expect(await stage(client)).toBe(1);
  });
});
