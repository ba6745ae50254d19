/**
 * The word lists the entity rules read (src/memory/entities/gazetteer-cities.json, common-words.json)
 * are what `npm run entity-data` writes from the pinned `city-timezones` and `dictionary-en` packages:
 * a new package version without regenerated files fails here, not silently in production.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  COMMON_WORDS,
  commonWords,
  GAZETTEER_CITIES,
  gazetteerCities,
  PET_KINDS,
  petKinds,
} from "../../scripts/build-entity-data";

describe("entity data", () => {
  it("the cities are the package's city names, regenerated", () => {
    const text = JSON.parse(readFileSync(GAZETTEER_CITIES, "utf8")) as string;
    expect(text).toEqual(JSON.parse(gazetteerCities()));
    const committed = text.split("\n");
    expect([...committed].sort()).toEqual(committed);
    for (const city of ["berlin", "lisbon", "hangzhou", "new york", "sao paulo", "munich"])
      expect(committed).toContain(city);
    for (const town of ["david", "george", "panda"]) expect(committed).not.toContain(town);
  });

  it("the common words are the dictionary's lower-case words, regenerated", () => {
    const committed = JSON.parse(readFileSync(COMMON_WORDS, "utf8")) as string;
    expect(committed).toEqual(JSON.parse(commonWords()));
    expect([...committed.split(" ")].sort()).toEqual(committed.split(" "));
    const words = new Set(committed.split(" "));
    for (const w of ["lazy", "yep", "awesome"]) expect(words.has(w), w).toBe(true);
    for (const w of ["caroline", "berlin", "maria", "tom", "grace"]) expect(words.has(w), w).toBe(false);
  });

  it("the pet kinds are WordNet's dogs and house cats, regenerated, without words that mean something else first", () => {
    const committed = readFileSync(PET_KINDS, "utf8");
    expect(committed).toEqual(petKinds());
    const kinds = JSON.parse(committed) as Record<string, string>;
    const dogs = kinds.dog.split("\n");
    const cats = kinds.cat.split("\n");
    expect([...dogs].sort()).toEqual(dogs);
    for (const k of ["golden retriever", "corgi", "labrador retriever", "german shepherd", "poodle", "puppy"])
      expect(dogs, k).toContain(k);
    for (const k of ["tabby cat", "persian cat", "tomcat"]) expect(cats, k).toContain(k);
    for (const k of ["boxer", "toy", "pointer", "setter"]) expect(dogs, k).not.toContain(k);
    for (const k of ["queen", "puss", "tom"]) expect(cats, k).not.toContain(k);
  });
});
