import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { cosine } from "../../src/memory/vector-math";
import { LocalHashEmbedder } from "../../src/providers/local-hash-embedder";
import { createKey, uniqueUser } from "../helpers/api-keys";

function post(key: string, body: unknown): Promise<Response> {
  return exports.default.fetch(
    new Request("http://localhost/v1/similarity", {
      method: "POST",
      headers: { host: "localhost", authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

describe("POST /v1/similarity (npm run calibrate's raw cosines)", () => {
  it("answers the server embedder's cosine per pair, in order", async () => {
    const { key } = await createKey({ app: uniqueUser("calib-app") });
    const pairs = [
      { a: "I love sushi", b: "I really love sushi" },
      { a: "I love sushi", b: "The staging database lives in Frankfurt" },
    ];
    const res = await post(key, { pairs });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { provider: string; model: string; dimensions: number; cosines: number[] };
    expect(body).toMatchObject({ provider: "local", model: "local-hash-v1", dimensions: 384 });
    const embedder = new LocalHashEmbedder({ model: "local-hash-v1" });
    const expected = await Promise.all(
      pairs.map(async (p) => {
        const [a, b] = await embedder.embed([p.a, p.b]);
        return cosine(a, b);
      }),
    );
    expect(body.cosines).toHaveLength(2);
    body.cosines.forEach((c, i) => expect(c).toBeCloseTo(expected[i], 6));
    expect(body.cosines[0]).toBeGreaterThan(body.cosines[1]);
  });

  it("takes app keys only, and names the field of a bad body", async () => {
    const user = await createKey({ user: uniqueUser("calib-user") });
    const denied = await post(user.key, { pairs: [{ a: "x", b: "y" }] });
    expect(denied.status).toBe(403);
    expect(JSON.stringify(await denied.json())).toMatch(/app-scoped key/);
    const { key } = await createKey({ app: uniqueUser("calib-app") });
    const empty = await post(key, { pairs: [{ a: "x", b: "" }] });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toMatch(/pairs\.0\.b/);
    const tooMany = await post(key, { pairs: Array.from({ length: 33 }, () => ({ a: "x", b: "y" })) });
    expect(tooMany.status).toBe(400);
    expect((await post(key, "not json")).status).toBe(400);
    const anonymous = await exports.default.fetch(
      new Request("http://localhost/v1/similarity", { method: "POST", headers: { host: "localhost" }, body: "{}" }),
    );
    expect(anonymous.status).toBe(401);
  });
});
