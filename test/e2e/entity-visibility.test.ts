/**
 * Entity views show what the caller may read: memory://entities, memory://entity/{name} and the
 * completion of `name` are built from the active memories the caller's agent sees (shared ones and
 * its own; a call without an agent sees every agent's, as list_memories does). Another agent of the
 * same person never learns the names, kinds or relations an agent's private memory states, and an
 * entity whose memories are all deleted is no longer named anywhere. Over the real transports with
 * the MCP SDK client.
 */
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

async function readText(client: Client, uri: string): Promise<string> {
  const r = await client.readResource({ uri });
  return (r.contents[0] as { text: string }).text;
}

async function completeName(client: Client, value: string): Promise<string[]> {
  const r = await client.complete({
    ref: { type: "ref/resource", uri: "memory://entity/{name}" },
    argument: { name: "name", value },
  });
  return r.completion.values;
}

async function save(client: Client, content: string): Promise<string> {
  const r = await callTool(client, "save_memory", { content });
  expect(r.structuredContent?.status, textOf(r)).toBe("created");
  return r.structuredContent!.id as string;
}

const notNamed = (client: Client, name: string) =>
  expect(client.readResource({ uri: `memory://entity/${encodeURIComponent(name)}` })).rejects.toThrow(
    `No person, place or thing named "${name}" is remembered.`,
  );

describe.each(["mcp", "sse"] as const)("entity views on /%s", (transport) => {
  it("another agent sees no name, kind, relation or completion drawn from an agent's private memory", async () => {
    const key = (await createKey({ user: uniqueUser("ent-vis") })).key;
    const alpha = await connect(key, { transport, headers: { "x-agent-id": "alpha" } });
    const beta = await connect(key, { transport, headers: { "x-agent-id": "beta" } });
    await save(alpha, "My sister Zuzanna works at Quillfeather Labs");
    await save(beta, "Ingrid plays the oboe");

    // Alpha sees what its private memory names; beta does not, in the list, the page or completions.
    expect(await readText(alpha, "memory://entities")).toContain('"Zuzanna"');
    expect(await readText(alpha, "memory://entity/Zuzanna")).toContain("sister");
    const seenByBeta = await readText(beta, "memory://entities");
    expect(seenByBeta).toContain('"Ingrid"');
    expect(seenByBeta).not.toMatch(/Zuzanna|Quillfeather/);
    await notNamed(beta, "Zuzanna");
    await notNamed(beta, "Quillfeather Labs");
    expect(await completeName(beta, "z")).toEqual([]);
    expect(await completeName(beta, "q")).toEqual([]);
    expect(await completeName(alpha, "z")).toEqual(["Zuzanna"]);
    // Alpha does not see beta's either; a call without an agent sees both, as list_memories does.
    expect(await readText(alpha, "memory://entities")).not.toContain("Ingrid");
    const plain = await connect(key, { transport });
    const all = await readText(plain, "memory://entities");
    expect(all).toContain('"Zuzanna"');
    expect(all).toContain('"Ingrid"');
  });

  it("a shared entity's relations and other names stated by another agent's private memory stay hidden", async () => {
    const key = (await createKey({ user: uniqueUser("ent-rel") })).key;
    const alpha = await connect(key, { transport, headers: { "x-agent-id": "alpha" } });
    const beta = await connect(key, { transport, headers: { "x-agent-id": "beta" } });
    const shared = await callTool(alpha, "save_memory", { content: "Bartholomew lives in Reykjavik", shared: true });
    expect(shared.structuredContent?.status, textOf(shared)).toBe("created");
    await save(alpha, "My cousin Bartholomew works at Quillfeather Labs");
    const page = await readText(beta, "memory://entity/Bartholomew");
    expect(page).toContain("Reykjavik");
    expect(page).not.toContain("Quillfeather");
    // The other name only alpha's private memory gave him is alpha's too.
    expect(page).not.toContain("cousin");
    expect(await readText(beta, "memory://entities")).not.toContain("cousin");
    // Nor does looking him up by it find him.
    await notNamed(beta, "my cousin");
    expect(await readText(alpha, "memory://entity/my%20cousin")).toContain("Bartholomew");
    const own = await readText(alpha, "memory://entity/Bartholomew");
    expect(own).toContain("Quillfeather");
    expect(own).toContain("cousin");
  });

  it("an entity whose memories are all deleted is no longer named", async () => {
    const client = await connect((await createKey({ user: uniqueUser("ent-del") })).key, { transport });
    const id = await save(client, "My cousin Evaristo lives in Valparaiso");
    await save(client, "Ingrid plays the oboe");
    expect(await readText(client, "memory://entity/Evaristo")).toContain("Evaristo");
    expect((await callTool(client, "delete_memory", { id })).isError).toBeFalsy();
    expect(await readText(client, "memory://entities")).not.toMatch(/Evaristo|Valparaiso/);
    await notNamed(client, "Evaristo");
    await notNamed(client, "Valparaiso");
    expect(await completeName(client, "ev")).toEqual([]);
  });
});
