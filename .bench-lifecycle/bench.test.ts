import { it } from "vitest";
import { env } from "cloudflare:workers";
import type { Env } from "../src/env";
import { runScheduledMaintenance } from "../src/jobs/scheduled";
import { DAY, insertMemories, ownerOf } from "../test/helpers/lifecycle";

const words = "tea chess rain jazz maps kites opera tennis python rust garden piano hiking sushi coffee cats dogs books films poems".split(" ");
const cron = async (label: string, vars: Record<string, string> = {}) => {
  const s = await runScheduledMaintenance({ ...env, ...vars } as Env, Date.now());
  const perOwner = s.outcomes.map((o) => ("report" in o ? o.report.elapsedMs : -1));
  console.log(`BENCH ${label}: owners=${s.owners} done=${s.done} partial=${s.partial} skipped=${s.skipped} elapsed=${s.elapsedMs}ms maxOwnerMs=${Math.max(...perOwner)} totals=${JSON.stringify(s.totals)}`);
  return s;
};

it("bench", async () => {
  const t = Date.now() - 60 * DAY;
  for (let u = 0; u < 20; u++) {
    const owner = ownerOf(`bench-${u}`);
    const rows = Array.from({ length: 250 }, (_, i) => ({
      content: i % 10 === 0 ? `I like ${words[(i / 10) % words.length]} a lot` : `Fact ${i} about ${words[i % words.length]} and ${words[(i * 7) % words.length]} number ${i}`,
      createdAt: t + i, expiresAt: i % 10 === 5 ? Date.now() - 1000 : null,
    }));
    for (let k = 0; k < rows.length; k += 50) await insertMemories(owner, rows.slice(k, k + 50));
  }
  for (let i = 1; i <= 8; i++) {
    const s = await cron(`run ${i}`);
    if (s.owners === 0) break;
  }
  const single = ownerOf("solo");
  await insertMemories(single, Array.from({ length: 2000 }, (_, i) => ({ content: `Solo fact ${i} on ${words[i % words.length]} ${words[(i * 3) % words.length]}`, createdAt: t + i })));
  for (let i = 1; i <= 6; i++) {
    const s = await cron(`solo run ${i}`);
    if (s.owners === 0) break;
  }
});
