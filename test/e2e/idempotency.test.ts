/**
 * An idempotency key is tied to a hash of its request. A retry with the same
 * content replays the first answer; the same key with different content is a clear error.
 */
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

describe("idempotency keys", () => {
  it("replay the same request, refuse a different one under the same key", async () => {
    const client = await connect((await createKey({ user: uniqueUser("idem") })).key);
    const first = await callTool(client, "save_memory", {
      content: "Flight to Oslo on 3 March",
      idempotency_key: "trip-1",
    });
    expect(first.structuredContent).toMatchObject({ status: "created", replayed: false });
    const retry = await callTool(client, "save_memory", {
      content: "Flight to Oslo on 3 March",
      idempotency_key: "trip-1",
    });
    expect(retry.structuredContent).toMatchObject({ id: first.structuredContent?.id, replayed: true });
    const other = await callTool(client, "save_memory", {
      content: "Flight to Rome on 9 May",
      idempotency_key: "trip-1",
    });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toMatch(/idempotency_key/);
    expect(textOf(other)).toMatch(/different request/);
    const changedField = await callTool(client, "save_memory", {
      content: "Flight to Oslo on 3 March",
      priority: 1,
      idempotency_key: "trip-1",
    });
    expect(changedField.isError).toBe(true);
    const listed = await callTool(client, "list_memories", { limit: 10 });
    expect((listed.structuredContent as { memories: unknown[] }).memories).toHaveLength(1);
  });
});
