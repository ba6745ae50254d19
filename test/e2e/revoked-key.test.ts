/**
 * A revoked API key from the attacker's side: every surface that takes a key (/mcp, the legacy
 * /sse, /v1/export, /v1/import, dashboard sign-in) refuses it, and nothing is written with it. The
 * key is revoked before its first use, so no isolate holds it in its short live-key cache.
 */
import { describe, expect, it } from "vitest";
import { createKey, revokeKey, uniqueUser } from "../helpers/api-keys";
import { Browser } from "../helpers/dashboard-browser";
import { callTool, trackedConnect } from "../helpers/mcp-client";
import { mcpPost, rawFetch, uniqueIp } from "../helpers/oauth";

const connect = trackedConnect();

describe("a revoked API key", () => {
  it("is refused on /mcp, /sse, /v1/export, /v1/import and the dashboard, and writes nothing", async () => {
    const user = uniqueUser("revoked");
    const live = await createKey({ user });
    const revoked = await createKey({ user });
    await revokeKey(revoked.id);
    const auth = { authorization: `Bearer ${revoked.key}` };
    expect((await mcpPost(revoked.key)).status).toBe(401);
    expect((await rawFetch("/sse", { method: "GET" }, auth)).status).toBe(401);
    expect((await rawFetch("/v1/export", {}, auth)).status).toBe(401);
    const imported = await rawFetch(
      "/v1/import",
      { method: "POST", body: '{"content":"Written with a revoked key"}\n' },
      auth,
    );
    expect(imported.status).toBe(401);
    const b = new Browser(uniqueIp());
    expect((await b.signIn(revoked.key)).status).toBe(401);
    expect(b.cookies.has("hc_dash")).toBe(false);
    // The live key of the same user still works and sees nothing written.
    expect((await mcpPost(live.key)).status).toBe(200);
    const listed = await callTool(await connect(live.key), "list_memories", { status: "all" });
    expect((listed.structuredContent as { memories: unknown[] }).memories).toEqual([]);
  });
});
