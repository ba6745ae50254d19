import { describe, expect, it } from "vitest";
import type { Memory } from "../../src/memory/types";
import { acceptedRemainder } from "../../src/memory/write/remainder";
import { decideConflictByRules } from "../../src/providers/rules/decide-conflict";
import { remainderOf } from "../../src/providers/rules/remainder";

const one = (content: string) => [{ handle: 1, content, category: "personal" }];

describe("supersede with a remainder: the rules", () => {
  it.each([
    ["我住在上海，每天骑自行车上班", "我搬到北京了，不再住在上海", "我每天骑自行车上班"],
    ["I live in Lisbon and teach yoga on weekends", "I moved to Porto", "I teach yoga on weekends"],
    ["I live in Lisbon. I teach yoga on weekends.", "I moved to Porto", "I teach yoga on weekends"],
    ["I work at Google and I play tennis on Sundays", "I work for Acme now", "I play tennis on Sundays"],
    ["我喜欢喝咖啡，也喜欢爬山", "我不喜欢喝咖啡了", "我也喜欢爬山"],
  ])("%j superseded by %j leaves %j", (stored, next, rest) => {
    const decision = decideConflictByRules(next, one(stored));
    expect(decision.supersedes).toEqual([1]);
    expect(decision.remainders).toEqual([{ handle: 1, content: rest }]);
  });

  it("leaves no remainder when the memory is one fact, or every fact is contradicted", () => {
    expect(decideConflictByRules("I moved to Porto", one("I live in Lisbon")).remainders).toBeUndefined();
    expect(remainderOf("I live in Lisbon and I live in Faro", () => true)).toBeNull();
    expect(remainderOf("I live in Lisbon and teach yoga", () => false)).toBeNull();
  });

  it("keeps a description with the clause it describes: no 'I close to the river' is left", () => {
    const en = decideConflictByRules("I've moved to Dublin", one("I rent a place in Lyon, close to the river."));
    expect(en.supersedes).toEqual([1]);
    expect(en.remainders).toBeUndefined();
    const zh = decideConflictByRules("我搬到北京了", one("我住在上海，离公司很近，每天骑自行车上班"));
    expect(zh.remainders).toEqual([{ handle: 1, content: "我每天骑自行车上班" }]);
    const commute = decideConflictByRules("现在改骑电动车了，快多了。", one("我每天坐地铁上班，单程一个小时。"));
    expect(commute.supersedes).toEqual([1]);
    expect(commute.remainders).toBeUndefined();
  });

  it("does not touch what it does not supersede", () => {
    const d = decideConflictByRules("I moved to Porto", one("I teach yoga on weekends and love jazz"));
    expect(d.supersedes).toEqual([]);
    expect(d.remainders).toBeUndefined();
  });
});

describe("supersede with a remainder: what the domain accepts", () => {
  const older = { id: "m1", content: "I live in Lisbon and teach yoga on weekends" } as Memory;

  it("keeps a true part of the superseded memory", () => {
    expect(acceptedRemainder(older, " I teach yoga on weekends ")).toBe("I teach yoga on weekends");
  });

  it("refuses a remainder that adds a fact, restates the whole memory, or is empty", () => {
    expect(acceptedRemainder(older, "I teach yoga and surf on weekends")).toBeNull();
    expect(acceptedRemainder(older, "I live in Lisbon and teach yoga on weekends")).toBeNull();
    expect(acceptedRemainder(older, "   ")).toBeNull();
    expect(acceptedRemainder(older, undefined)).toBeNull();
  });
});
