import { it } from "vitest";
import { env } from "cloudflare:workers";
import { D1MemoryRepo } from "../src/storage/d1-memory-repo";
import { queryTokens } from "../src/memory/text/tokenize";
import { DAY, insertMemories, ownerOf, withDeps } from "../test/helpers/lifecycle";

const words = "tea chess rain jazz maps kites opera tennis python rust garden piano hiking sushi coffee cats dogs books films poems".split(" ");

it("bench", async () => {
  const t = Date.now() - 60 * DAY;
  for (let u = 0; u < 20; u++) {
    const owner = ownerOf(`bench-${u}`);
    const rows = Array.from({ length: 250 }, (_, i) => ({
      content: i % 10 === 0 ? `I like ${words[(i / 10) % words.length]} a lot` : `Fact ${i} about ${words[i % words.length]} and ${words[(i * 7) % words.length]} number ${i}`,
      createdAt: t + i,
    }));
    for (let k = 0; k < rows.length; k += 50) await insertMemories(owner, rows.slice(k, k + 50));
  }
  const owner = ownerOf("bench-3");
  const repo = new D1MemoryRepo(env.DB);
  const seeds = await repo.listActivePage(owner, { after: null, limit: 25 });
  let t0 = Date.now();
  for (const s of seeds) await repo.searchText(owner, queryTokens(s.content), 10);
  console.log("BENCH 25 searchText ms", Date.now() - t0);
  t0 = Date.now();
  for (const s of seeds) await repo.getMany(owner, seeds.slice(0, 10).map((x) => x.id));
  console.log("BENCH 25 getMany ms", Date.now() - t0);
  await withDeps(owner, async (d) => {
    const vs = await d.embedder.embed(seeds.map((s) => s.content));
    await d.index.upsert(owner, (await repo.listActivePage(owner, { after: null, limit: 250 })).map((m, i) => ({ id: m.id, vector: vs[i % vs.length] })));
    t0 = Date.now();
    for (const v of vs) await d.index.query(owner, v, 10);
    console.log("BENCH 25 index.query ms", Date.now() - t0);
    t0 = Date.now();
    for (const s of seeds) await d.llm.decideConflict(s.content, seeds.slice(0, 8).map((x, i) => ({ handle: i + 1, content: x.content, category: x.category })));
    console.log("BENCH 25 decideConflict(8) ms", Date.now() - t0);
  });
  const plan = await env.DB.prepare("EXPLAIN QUERY PLAN SELECT f.memory_id FROM memories_fts f JOIN memories m ON m.id = f.memory_id WHERE memories_fts MATCH ? AND f.owner = ? AND m.status IN ('active')").bind('"fact"', "default:bench-3").all();
  console.log("BENCH fts plan", JSON.stringify(plan.results.map((r: any) => r.detail)));
});
