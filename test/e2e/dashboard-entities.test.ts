/**
 * /dashboard/entities and /dashboard/entities/:name in the Worker: the person's own people, places
 * and things with their relations and links to their memories, hostile names escaped, every word
 * in both languages, another person's entity not found, and the sign-in required.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { Browser, signedInPerson } from "../helpers/dashboard-browser";

const HOSTILE = '"><img src=x onerror=alert(1)><script>alert(2)</script>';

async function importGraph(key: string, lines: object[]): Promise<void> {
  const res = await exports.default.fetch(
    new Request("http://localhost/v1/import", {
      method: "POST",
      headers: { host: "localhost", authorization: `Bearer ${key}` },
      body: lines.map((l) => JSON.stringify(l)).join("\n"),
    }),
  );
  expect(res.status).toBe(200);
}

const GRAPH = [
  { type: "entity", name: "Ana", entityType: "person", observations: ["Works as a marine biologist"] },
  { type: "entity", name: "Bergen", entityType: "city", observations: ["Rains a lot"] },
  { type: "entity", name: HOSTILE, entityType: "product", observations: ["A strange gadget"] },
  { type: "relation", from: "Ana", to: "Bergen", relationType: "lives_in" },
  { type: "relation", from: "Ana", to: HOSTILE, relationType: "owns" },
];

describe("the dashboard's people, places and things", () => {
  it("lists them with kinds, counts and relations, links each to its page, and escapes names", async () => {
    const { b, key } = await signedInPerson();
    await importGraph(key, GRAPH);
    const html = await b.html("/dashboard/entities?lang=en");
    expect(html).toContain('<a href="/dashboard/entities" aria-current="page">People &amp; places</a>');
    expect(html).toContain('<a href="/dashboard/entities/Ana" class="entity-name">Ana</a>');
    expect(html).toContain("3 memories");
    expect(html).toMatch(/<span class="predicate">lives in<\/span>/);
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain(`href="/dashboard/entities/${encodeURIComponent(HOSTILE)}"`);

    const ana = await b.html("/dashboard/entities/Ana?lang=en");
    expect(ana).toContain('<h1 class="entity-name">Ana</h1>');
    expect(ana).toContain("Memories that name it");
    expect(ana).toContain('<a href="/dashboard/entities/Bergen">Bergen</a>');
    const links = [...ana.matchAll(/href="\/dashboard\/memories\/([0-9A-Z]{26})"/g)].map((m) => m[1]);
    expect(links).toHaveLength(3);

    const evil = await b.html(`/dashboard/entities/${encodeURIComponent(HOSTILE)}`);
    expect(evil).not.toContain("<img src=x");
    expect(evil).toContain("A strange gadget");
  });

  it("speaks Chinese, and says so when nothing is there yet", async () => {
    const { b, key } = await signedInPerson();
    const empty = await b.html("/dashboard/entities?lang=zh");
    expect(empty).toContain("还没有人物、地点或事物");
    await importGraph(key, GRAPH);
    const html = await b.html("/dashboard/entities?lang=zh");
    expect(html).toContain("人物与地点");
    expect(html).toContain("3 条记忆");
    expect(html).toContain('<span class="badge kind-place">地点</span>');
  });

  it("shows no one else's entity, and asks for sign-in first", async () => {
    const other = await createKey({ user: uniqueUser("dash") });
    await importGraph(other.key, GRAPH);
    const { b } = await signedInPerson();
    const res = await b.go("/dashboard/entities/Ana?lang=en");
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("No person, place or thing by that name is remembered.");
    const list = await b.html("/dashboard/entities");
    expect(list).not.toContain(">Ana<");
    expect(list).toContain("No people, places or things yet");
    const anonymous = await new Browser().go("/dashboard/entities");
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toContain("next=%2Fdashboard%2Fentities");
  });
});
