/** Membership in a sorted list kept as one string (memory/entities/sorted-words.ts), against a Set. */
import { describe, expect, it } from "vitest";
import { inSortedList } from "../../src/memory/entities/sorted-words";

describe("inSortedList", () => {
  it("finds every entry and nothing else, whatever the list's length", () => {
    const words = ["a", "ab", "abc", "b", "berlin", "new york", "são paulo", "zurich", "東京"].sort();
    for (let n = 0; n <= words.length; n++) {
      const list = words.slice(0, n);
      const text = list.join("\n");
      for (const w of [...words, "", "aa", "new", "york", "zz", "berlinx", "0"])
        expect(inSortedList(text, "\n", w), `${JSON.stringify(w)} in ${n}`).toBe(list.includes(w));
    }
  });

  it("never matches across the separator", () => {
    expect(inSortedList("ab cd", " ", "ab cd")).toBe(false);
    expect(inSortedList("ab cd", " ", "b c")).toBe(false);
  });
});
