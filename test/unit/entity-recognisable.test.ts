/**
 * Entities a person recognises: never a redaction marker, a secret's remains or a code; the
 * user's own name is the user, a person; cities and countries are places because a gazetteer shipped
 * by data packages lists them (memory/entities/gazetteer.ts), in English and Chinese, without a
 * preposition to say so.
 */
import { describe, expect, it } from "vitest";
import type { EntityKind } from "../../src/memory/entities/entity-types";
import { extractEntities } from "../../src/memory/entities/extract-entities";
import { placeName } from "../../src/memory/entities/gazetteer";
import { redactSecrets } from "../../src/memory/write/redact-secrets";

const names = (text: string) => extractEntities("m", text).entities.map((e) => e.name);
const kindIn = (text: string, name: string): EntityKind | undefined =>
  extractEntities("m", text).entities.find((e) => e.name === name)?.kind;

describe("names a person would not recognise", () => {
  it("never takes a redaction marker for a name", () => {
    const text = "The staging key is [REDACTED:api_key] and Anna rotates it. Token: [REDACTED:jwt], ask Anna.";
    expect(names(text)).not.toContain("REDACTED");
    expect(names(text).join(" ")).not.toMatch(/REDACTED|api_key|jwt/i);
    const redacted = redactSecrets("My GitHub token is ghp_abcdefghijklmnopqrstuvwxyz0123456789 says Anna").text;
    expect(names(redacted).join(" ")).not.toMatch(/REDACTED|ghp_/i);
  });

  it("never takes a code or a secret-looking string for a name", () => {
    expect(names("We parked on level N3 near Gate B12 with Maria.")).not.toContain("N3");
    expect(names("We parked on level N3 near Gate B12 with Maria.")).not.toContain("B12");
    expect(names("Ask Maria for the wifi password Xk9Qm2Lp7Zr4 at the door.")).not.toContain("Xk9Qm2Lp7Zr4");
    expect(names("We parked on level N3 near Gate B12 with Maria.")).toContain("Maria");
  });

  it("never takes a bare everyday word for a name, and keeps one a relation names", () => {
    expect(names("We had a Lazy afternoon with Maria.")).toEqual(["Maria"]);
    expect(names("Yep, Maria said so. Awesome!")).toEqual(["Maria"]);
    expect(kindIn("My dog Lazy sleeps all day.", "Lazy")).toBe("pet");
    expect(kindIn("We had dinner with Caroline.", "Caroline")).toBeDefined();
  });

  it("does not make a small town of a given name or an everyday word a place", () => {
    expect(kindIn("I met David at the gym.", "David")).not.toBe("place");
    expect(kindIn("We watched Man of Steel with Jon.", "Man of Steel")).not.toBe("place");
    expect(names("That Panda plush was cute, said Jon.")).not.toContain("Panda");
  });
});

describe("the user's own name", () => {
  it.each([
    ["My name is Daniel Weber and I live in Berlin.", "Daniel Weber"],
    ["Hi, I'm Daniel Weber, a nurse from Hamburg.", "Daniel Weber"],
    ["Everyone calls me Dani.", "Dani"],
    ["我叫张伟，在杭州上班。", "张伟"],
  ])("%s → %s is the user, a person", (text, name) => {
    const got = extractEntities("m", text);
    expect(got.entities.find((e) => e.name === name)?.kind).toBe("person");
    expect(got.relations).toContainEqual({ subject: name, predicate: "name_of", object: "user" });
  });
});

describe("places from the gazetteer", () => {
  it.each([
    ["I miss Berlin every winter.", "Berlin", "place"],
    ["Berlin was cold this winter.", "Berlin", "place"],
    ["We loved Portugal and its coast.", "Portugal", "place"],
    ["The flight to New York was delayed.", "New York", "place"],
    ["Berlin's museums are free on Sundays.", "Berlin", "place"],
  ])("%s → %s is a %s", (text, name, kind) => {
    expect(kindIn(text, name)).toBe(kind);
  });

  it("keeps a person who shares a city's name where the words say person", () => {
    expect(kindIn("My sister Florence works as a nurse.", "Florence")).toBe("person");
  });

  it("knows countries and cities in English and Chinese, Chinese provinces and prefecture cities included", () => {
    for (const p of [
      "Berlin",
      "germany",
      "Lisbon",
      "Hangzhou",
      "德国",
      "日本",
      "杭州",
      "杭州市",
      "浙江",
      "浙江省",
      "成都",
      "北京",
    ])
      expect(placeName(p), p).toBe(true);
    for (const p of ["Lazy", "Caroline", "REDACTED", "N3", "小雅", "银行"]) expect(placeName(p), p).toBe(false);
  });

  it("reads a Chinese city or province named after a place word as a place", () => {
    const got = extractEntities("m", "下个月我要去成都出差，然后回浙江看爸妈。");
    expect(got.entities.find((e) => e.name === "成都")?.kind).toBe("place");
    expect(got.entities.find((e) => e.name === "浙江")?.kind).toBe("place");
    expect(extractEntities("m", "这两个方案大同小异。").entities).toEqual([]);
  });
});
