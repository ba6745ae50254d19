/**
 * The link search and fetch hand to ChatGPT: /dashboard/memories/<id>. Signed out, it asks the person
 * to sign in and then shows that memory; the page to return to must be a path inside the dashboard
 * (never another host), and the memory's text is shown as text, in English or Chinese.
 */
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { Browser } from "../helpers/dashboard-browser";
import { callTool, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();
const HOSTILE = `Grace said <script>alert("x")</script> & <img src=x onerror=alert(1)> about peanuts`;

async function memoryLink(): Promise<{ key: string; url: string; id: string }> {
  const { key } = await createKey({ user: uniqueUser("link") });
  const client = await connect(key);
  const saved = await callTool(client, "save_memory", { content: HOSTILE, category: "health" });
  const id = saved.structuredContent!.id as string;
  const found = await callTool(client, "search", { query: "peanuts Grace" });
  const hit = (found.structuredContent!.results as { id: string; url: string }[]).find((r) => r.id === id)!;
  return { key, url: hit.url, id };
}

const nextField = (html: string) => /name="next" value="([^"]*)"/.exec(html)?.[1];

describe("a memory's dashboard link", () => {
  it("signed out: sign in, then the memory itself, its text escaped", async () => {
    const { key, url, id } = await memoryLink();
    const path = new URL(url).pathname;
    expect(path).toBe(`/dashboard/memories/${id}`);
    const b = new Browser();
    const asked = await b.go(path);
    expect(asked.status).toBe(303);
    const signInAt = asked.headers.get("location")!;
    expect(signInAt).toBe(`/dashboard?next=${encodeURIComponent(path)}`);
    const page = await b.html(signInAt);
    expect(nextField(page)).toBe(path);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
    const signed = await b.post("/dashboard/sign-in", { csrf, key, next: path });
    expect(signed.status).toBe(303);
    expect(signed.headers.get("location")).toBe(path);
    const shown = await b.html(path);
    expect(shown).toContain('id="memory-content"');
    expect(shown).not.toContain("<script>alert");
    expect(shown).not.toContain("<img src=x");
    expect(shown).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x");
    const zh = await b.html(`${path}?lang=zh`);
    expect(zh).toContain('lang="zh');
    expect(zh).toContain("&lt;script&gt;alert");
  });

  it("a wrong key keeps the page to return to; another person's memory is not shown", async () => {
    const { url } = await memoryLink();
    const path = new URL(url).pathname;
    const b = new Browser();
    const page = await b.html(`/dashboard?next=${encodeURIComponent(path)}`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
    const wrong = await b.post("/dashboard/sign-in", {
      csrf,
      key: "hc_0000000000000000000000000000000000000000",
      next: path,
    });
    expect(wrong.status).toBe(401);
    expect(nextField(await wrong.text())).toBe(path);
    const other = await createKey({ user: uniqueUser("link-other") });
    const again = csrfOf(await b.html(`/dashboard?next=${encodeURIComponent(path)}`));
    const signed = await b.post("/dashboard/sign-in", { csrf: again, key: other.key, next: path });
    expect(signed.headers.get("location")).toBe(path);
    const res = await b.go(path);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("peanuts");
  });

  it.each([
    "//evil.example/dashboard",
    "https://evil.example/dashboard",
    "/\\evil.example",
    "/dashboard/../oauth/authorize",
    "/dashboardx",
    "/mcp",
    "dashboard/memories/x",
    "/dashboard\r\nLocation: https://evil.example",
  ])("never returns to %j", async (next) => {
    const { key } = await createKey({ user: uniqueUser("link-unsafe") });
    const b = new Browser();
    const page = await b.html(`/dashboard?next=${encodeURIComponent(next)}`);
    expect(nextField(page)).toBeUndefined();
    const signed = await b.post("/dashboard/sign-in", { csrf: csrfOf(page), key, next });
    expect(signed.status).toBe(303);
    expect(signed.headers.get("location")).toBe("/dashboard");
    const home = await b.go(`/dashboard?next=${encodeURIComponent(next)}`);
    expect(home.status).toBe(200);
  });

  it("a form post while signed out goes to plain sign-in, with no page to return to", async () => {
    const res = await new Browser().post("/dashboard/memories/01ABC/delete", { csrf: "x" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard");
  });
});

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1];
