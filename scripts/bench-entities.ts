/**
 * @module scripts/bench-entities
 * `npm run bench:entities -- --data ../shared/data/locomo/locomo-dev.json [--sample 30] [--seed 1]`
 * The offline entity rules over a benchmark file, as the write paths run them (extractEntities on
 * every memory): per sample (one user each) the distinct entities, their kinds as the store keeps
 * them (the kind with the strongest cue any memory gives, the first of equals), and the relations; then the kinds'
 * distribution, and a seeded random sample of entities with the first memory naming each, for a
 * hand check of their kinds. No server: the domain functions only.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { extractEntities } from "../src/memory/entities/extract-entities.ts";
import { cueOf } from "../src/memory/entities/kind-cues.ts";
import { loadDataset } from "./lib/bench-data.ts";

const { values } = parseArgs({
  options: {
    data: { type: "string" },
    sample: { type: "string", default: "30" },
    seed: { type: "string", default: "1" },
  },
});
if (!values.data) throw new Error("usage: npm run bench:entities -- --data <file> [--sample 30] [--seed 1]");
const dataset = loadDataset(JSON.parse(readFileSync(values.data, "utf8")));

interface Seen {
  sample: string;
  name: string;
  kind: string;
  cue: number;
  memory: string;
}
const all: Seen[] = [];
let relations = 0;
for (const s of dataset.samples) {
  const byName = new Map<string, Seen>();
  for (const m of s.memories) {
    const got = extractEntities(m.externalId, m.content);
    relations += got.relations.length;
    for (const e of got.entities) {
      const known = byName.get(e.name);
      if (!known) byName.set(e.name, { sample: s.id, name: e.name, kind: e.kind, cue: cueOf(e), memory: m.content });
      else if (cueOf(e) > known.cue) Object.assign(known, { kind: e.kind, cue: cueOf(e) });
    }
  }
  all.push(...byName.values());
}
const kinds = new Map<string, number>();
for (const e of all) kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1);
console.log(`entities ${all.length}, relations ${relations}`);
console.log(
  [...kinds]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(", "),
);

// A seeded shuffle (mulberry32), so two runs list the same entities.
let state = Number(values.seed) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const order = [...all].sort((a, b) => `${a.sample}/${a.name}`.localeCompare(`${b.sample}/${b.name}`));
for (let i = order.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [order[i], order[j]] = [order[j], order[i]];
}
for (const e of order.slice(0, Number(values.sample)))
  console.log(`${e.kind.padEnd(12)} ${e.name.padEnd(24)} ${e.memory.slice(0, 110)}`);
