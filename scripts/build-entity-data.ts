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
 *    also lists as names), one space-separated string.
 * test/node/entity-data.test.ts fails when a file is not what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

export const GAZETTEER_CITIES = "src/memory/entities/gazetteer-cities.json";
export const COMMON_WORDS = "src/memory/entities/common-words.json";
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

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(GAZETTEER_CITIES, gazetteerCities());
  writeFileSync(COMMON_WORDS, commonWords());
  console.log(`wrote ${GAZETTEER_CITIES} and ${COMMON_WORDS}`);
}
