/**
 * An idempotency key belongs to its owner and agent (memory/owner-address.ts ownedKey): two agents
 * of one store using the same key are two requests, neither replayed nor refused for the other.
 */
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

describe("idempotency keys per agent", () => {
  it("the same key from two agents of one store saves both memories", async () => {
    const client = await connect((await createKey({ user: uniqueUser("idem-agent") })).key);
    const planner = await callTool(client, "save_memory", {
      content: "Flight to Oslo on 3 March",
      agent_id: "planner",
      idempotency_key: "step-1",
    });
    expect(planner.isError, textOf(planner)).toBeFalsy();
    const writer = await callTool(client, "save_memory", {
      content: "Draft the Oslo trip report by Friday",
      agent_id: "writer",
      idempotency_key: "step-1",
    });
    expect(writer.isError, textOf(writer)).toBeFalsy();
    expect(writer.structuredContent).toMatchObject({ status: "created", replayed: false });
    expect(writer.structuredContent?.id).not.toBe(planner.structuredContent?.id);
  });
});
