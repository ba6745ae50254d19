/**
 * The dashboard's devices page, from the attacker's side too: a person sees and revokes only their
 * own user keys; revoking one ends it for the API at once, its dashboard session with it; a key id
 * of another person (or an app key) changes nothing and the page says so. Also the pieces of a
 * page every visit meets: /favicon.ico, the history as sentences, priority as a select.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { Browser, csrfOf, signedInPerson } from "../helpers/dashboard-browser";
import { callTool, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

async function revokedAt(id: string): Promise<number | null> {
  const row = await env.DB.prepare("SELECT revoked_at FROM api_keys WHERE id = ?")
    .bind(id)
    .first<{ revoked_at: number | null }>();
  return row?.revoked_at ?? null;
}

describe("dashboard devices", () => {
  it("lists the person's own keys with their labels, and none of anyone else's", async () => {
    const { b, user } = await signedInPerson();
    const phone = await createKey({ user });
    const stranger = await createKey({ user: uniqueUser("other") });
    const page = await b.html("/dashboard/devices");
    expect(page).toContain(phone.id.slice(0, 4) === "key_" ? `/dashboard/devices/${phone.id}/revoke` : "");
    expect(page).not.toContain(stranger.id);
    expect(page).toMatch(/this session/);
  });

  it("revokes a device: the key stops working on /mcp, and a stranger's key id changes nothing", async () => {
    const { b, user } = await signedInPerson();
    const phone = await createKey({ user });
    const stranger = await createKey({ user: uniqueUser("other") });
    const app = await createKey({ app: "bot" });
    const csrf = csrfOf(await b.html("/dashboard/devices"));

    for (const foreign of [stranger.id, app.id]) {
      const res = await b.post(`/dashboard/devices/${foreign}/revoke`, { csrf });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toContain("flash=notYours");
      expect(await revokedAt(foreign)).toBeNull();
    }
    expect(await b.html("/dashboard/devices?flash=notYours")).toContain("Nothing was revoked");

    const client = await connect(phone.key);
    await callTool(client, "memory_stats", {});
    const res = await b.post(`/dashboard/devices/${phone.id}/revoke`, { csrf });
    expect(res.headers.get("location")).toContain("flash=keyRevoked");
    expect(await revokedAt(phone.id)).not.toBeNull();
    const mcp = await exports.default.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          host: "localhost",
          authorization: `Bearer ${phone.key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      }),
    );
    expect(mcp.status, await mcp.clone().text()).toBe(401);
  });

  it("refuses a revoke without the session's CSRF token and revokes nothing", async () => {
    const { b, user } = await signedInPerson();
    const phone = await createKey({ user });
    for (const form of [{}, { csrf: "" }, { csrf: "wrong" }] as Record<string, string>[]) {
      const res = await b.post(`/dashboard/devices/${phone.id}/revoke`, form);
      expect(res.status).toBe(403);
    }
    const foreignOrigin = await b.post(
      `/dashboard/devices/${phone.id}/revoke`,
      { csrf: csrfOf(await b.html("/dashboard/devices")) },
      "https://evil.example",
    );
    expect(foreignOrigin.status).toBe(403);
    expect(await revokedAt(phone.id)).toBeNull();
  });

  it("revoking the key of this session ends the session", async () => {
    const { b, keyId } = await signedInPerson();
    const csrf = csrfOf(await b.html("/dashboard/devices"));
    await b.post(`/dashboard/devices/${keyId}/revoke`, { csrf });
    const after = await b.go("/dashboard/devices");
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toMatch(/^\/dashboard(\?next=|$)/);
  });
});

describe("dashboard pages", () => {
  it("serves /favicon.ico as an icon", async () => {
    const res = await new Browser().go("/favicon.ico");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/x-icon");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]);
  });

  it("tells a memory's history in sentences with the device's label, and offers priority as a select", async () => {
    const { b, key } = await signedInPerson();
    const client = await connect(key);
    const saved = await callTool(client, "save_memory", { content: "I live in Lisbon and love sardines" });
    const id = (saved.structuredContent as { memory: { id: string } }).memory.id;
    await callTool(client, "update_memory", { id, content: "I live in Porto and love sardines", priority: 2 });
    const page = await b.html(`/dashboard/memories/${id}`);
    expect(page).toContain("Saved");
    expect(page).toContain("Changed");
    expect(page).toMatch(/<del[^>]*>Lisbon<\/del>/);
    expect(page).toMatch(/<ins[^>]*>Porto<\/ins>/);
    expect(page).toContain("3 · normal");
    expect(page).toContain("2 · important");
    expect(page).toMatch(/test-\d+/);
    expect(page).not.toMatch(/contentHash|accountId|updatedAt|"createdAt"/);
    expect(page).toMatch(/<select id="priority" name="priority">/);
    const zh = await b.html(`/dashboard/memories/${id}?lang=zh`);
    expect(zh).toContain("已修改");
    expect(zh).toContain("2 · 重要");
  });
});
