/**
 * @module memory/entities/pet-kinds
 * The kinds of dog and of house cat ("golden retriever", "corgi", "tabby cat"), from WordNet 3.1 by
 * `npm run entity-data` (scripts/build-entity-data.ts, pet-kinds.json): "we have a golden retriever
 * called Biscuit" names the user's dog as "we have a dog called Biscuit" does. Data and one lookup;
 * pure.
 */
import kinds from "./pet-kinds.json";

export type PetAnimal = keyof typeof kinds;

/** Each kind's words, by its first word: "golden" → [["golden", "retriever"]]. */
const BY_FIRST = new Map<string, { words: string[]; animal: PetAnimal }[]>();
for (const [animal, list] of Object.entries(kinds) as [PetAnimal, string][])
  for (const kind of list.split("\n")) {
    const words = kind.split(" ");
    const at = BY_FIRST.get(words[0]) ?? [];
    at.push({ words, animal });
    BY_FIRST.set(words[0], at);
  }
// Longest first, so "german shepherd dog" wins over "german shepherd".
for (const list of BY_FIRST.values()) list.sort((a, b) => b.words.length - a.words.length);

/** The pet kind that `words` (lower case) start with at `i`: its animal and how many words it spans. */
export function petKindAt(words: readonly string[], i: number): { animal: PetAnimal; length: number } | null {
  for (const kind of BY_FIRST.get(words[i] ?? "") ?? [])
    if (kind.words.every((w, k) => words[i + k] === w)) return { animal: kind.animal, length: kind.words.length };
  return null;
}
