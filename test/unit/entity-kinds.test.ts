/**
 * The kind an English memory's words give a name (memory/entities/entity-kind-en.ts): products and
 * projects by the verbs that take them, places only where the words around say place, people and
 * organisations and pets by their cues, `other` when nothing says, and the strongest cue winning
 * when one memory's mentions of a name disagree (kind-cues.ts).
 */
import { describe, expect, it } from "vitest";
import type { EntityKind } from "../../src/memory/entities/entity-types";
import { extractEntities } from "../../src/memory/entities/extract-entities";

const kindIn = (text: string, name: string): EntityKind | undefined =>
  extractEntities("m", text).entities.find((e) => e.name === name)?.kind;

describe("kinds from context", () => {
  it.each([
    ["I write Rust at work.", "Rust", "product"],
    ["These days I'm learning Rust.", "Rust", "product"],
    ["The service is written in Rust.", "Rust", "product"],
    ["Most of our code in Rust compiles slowly.", "Rust", "product"],
    ["Last week we launched Atlas.", "Atlas", "product"],
    ["I've been working on Atlas all month.", "Atlas", "product"],
    ["Our team shipped Atlas on time.", "Atlas", "product"],
    ["We built Atlas with three people.", "Atlas", "product"],
    ["I use Notion for notes.", "Notion", "product"],
  ])("%s → %s is a %s", (text, name, kind) => {
    expect(kindIn(text, name)).toBe(kind);
  });

  it.each([
    ["My aunt lives in Bergen.", "Bergen", "place"],
    ["Last year we moved to Lisbon.", "Lisbon", "place"],
    ["We visited Kyoto in spring.", "Kyoto", "place"],
    ["We planned a trip to Peru.", "Peru", "place"],
    ["Then I went to a conference in the UK.", "UK", "place"],
  ])("%s → %s is a %s", (text, name, kind) => {
    expect(kindIn(text, name)).toBe(kind);
  });

  it.each([
    ["Yesterday my friend Cindy called.", "Cindy", "person"],
    ["We visited my friends Mark and Ana.", "Mark", "person"],
    ["We visited my friends Josh and Mark.", "Mark", "person"],
    ["I met with Dr Lee today.", "Lee", "person"],
    ["Hey Audrey, how are you?", "Audrey", "person"],
    ["At lunch Priya said the plan works.", "Priya", "person"],
    ["My dog Shadow loves the park.", "Shadow", "pet"],
    ["She works at Globex since May.", "Globex", "organization"],
    ["Last year I joined Initech.", "Initech", "organization"],
    ["He studies at Stanford University.", "Stanford University", "organization"],
    ["We ran the Boston Marathon.", "Boston Marathon", "event"],
  ])("%s → %s is a %s", (text, name, kind) => {
    expect(kindIn(text, name)).toBe(kind);
  });

  it("says other when nothing says what a name is, rather than guessing", () => {
    expect(kindIn("I talked to Cindy about it.", "Cindy")).toBe("other");
    expect(kindIn("I got a letter from Atlas.", "Atlas")).toBe("other");
    expect(kindIn("I think the Hobbit is great.", "Hobbit")).toBe("other");
    expect(kindIn("I'm learning German this year.", "German")).toBe("other");
  });

  it("takes the strongest cue when one memory's mentions of a name disagree", () => {
    // A possessive (weak: a person) then a relation word (a pet): the pet wins, in either order.
    expect(kindIn("Max's toys are everywhere since my dog Max arrived.", "Max")).toBe("pet");
    expect(kindIn("My dog Max is here, and Max's bowl too.", "Max")).toBe("pet");
    // A bare preposition (weak: a place) then a verb of products (context): the product wins.
    expect(kindIn("We met in Atlas, then we launched Atlas.", "Atlas")).toBe("product");
    // No cue never replaces a kind.
    expect(kindIn("We moved to Lisbon. Then Lisbon, again.", "Lisbon")).toBe("place");
  });
});
