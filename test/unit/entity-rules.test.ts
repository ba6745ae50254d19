/**
 * Offline entity extraction (memory/entities): names tied to relation words, where people live and
 * work, kinds, speaker turns, and what must not become an entity, in English and Chinese.
 */
import { describe, expect, it } from "vitest";
import { entityKey } from "../../src/memory/entities/entity-keys";
import type { MemoryEntities } from "../../src/memory/entities/entity-types";
import { extractEntities } from "../../src/memory/entities/extract-entities";

const names = (m: MemoryEntities) => m.entities.map((e) => e.name);
const rel = (m: MemoryEntities) => m.relations.map((r) => `${r.subject} ${r.predicate} ${r.object}`);
const entity = (m: MemoryEntities, name: string) => m.entities.find((e) => e.name === name);

describe("English rules", () => {
  it("ties a name to the relation word before it", () => {
    const m = extractEntities("m1", "I had dinner with my sister Ana yesterday.");
    expect(names(m)).toEqual(["Ana"]);
    expect(entity(m, "Ana")).toMatchObject({ kind: "person", aliases: ["my sister"] });
    expect(rel(m)).toEqual(["Ana sister_of user"]);
  });

  it("ties a name to the relation word after it, and pets", () => {
    const a = extractEntities("m", "Tom is my best friend from school.");
    expect(rel(a)).toEqual(["Tom friend_of user"]);
    const b = extractEntities("m", "We adopted my dog Rex in May.");
    expect(entity(b, "Rex")).toMatchObject({ kind: "pet", aliases: ["my dog"] });
    expect(rel(b)).toEqual(["Rex pet_of user"]);
    const c = extractEntities("m", "Dinner with Ben, my brother, was fun.");
    expect(rel(c)).toEqual(["Ben brother_of user"]);
  });

  it("ties a new partner told of as 'someone new, her name is Maja'", () => {
    expect(rel(extractEntities("m", "I've started seeing someone new, her name is Maja."))).toEqual([
      "Maja girlfriend_of user",
    ]);
    expect(rel(extractEntities("m", "I'm dating someone, his name is Leo."))).toEqual(["Leo boyfriend_of user"]);
    expect(rel(extractEntities("m", "I'm seeing someone, their name is Sam."))).toEqual(["Sam partner_of user"]);
    expect(rel(extractEntities("m", "I'm seeing someone about the roof, his name is Bob."))).toEqual([]);
  });

  it("names a pet however its kind is said: a breed, 'our', a name that is also a word", () => {
    const pet = (text: string) => extractEntities("m", text);
    expect(rel(pet("We have a golden retriever called Biscuit."))).toEqual(["Biscuit pet_of user"]);
    expect(entity(pet("We have a golden retriever called Biscuit."), "Biscuit")).toMatchObject({
      kind: "pet",
      aliases: ["my dog"],
    });
    expect(rel(pet("We have a dog called Biscuit."))).toEqual(["Biscuit pet_of user"]);
    expect(rel(pet("Our corgi, Mochi, loves the beach."))).toEqual(["Mochi pet_of user"]);
    expect(entity(pet("My tabby cat is called Pepper."), "Pepper")).toMatchObject({ kind: "pet", aliases: ["my cat"] });
    // Words whose first sense is not the animal name no pet.
    expect(rel(pet("I have a toy called Woody."))).toEqual([]);
    expect(rel(pet("I have a boxer named Max."))).toEqual([]);
    expect(rel(pet("Our boss Raj is strict."))).toEqual(["Raj boss_of user"]);
  });

  it("ties the ways people introduce someone: 'I have a brother, Kofi', 'my manager is Raj', 'my big sister'", () => {
    expect(rel(extractEntities("m", "I have a younger brother, Kofi."))).toEqual(["Kofi brother_of user"]);
    expect(rel(extractEntities("m", "I've got a sister called Mia."))).toEqual(["Mia sister_of user"]);
    expect(rel(extractEntities("m", "My manager is Raj."))).toEqual(["Raj boss_of user"]);
    expect(entity(extractEntities("m", "My best friend is Ethan."), "Ethan")?.aliases).toEqual(["my best friend"]);
    expect(rel(extractEntities("m", "Jake has been my best friend since school."))).toEqual(["Jake friend_of user"]);
    expect(rel(extractEntities("m", "Sara is my big sister."))).toEqual(["Sara sister_of user"]);
    expect(rel(extractEntities("m", "I share the flat with Tom."))).toEqual(["Tom roommate_of user"]);
    expect(rel(extractEntities("m", "I report to Raj."))).toEqual(["Raj boss_of user"]);
    // One tie read by two patterns is one relation.
    expect(rel(extractEntities("m", "I report to Tom, my boss."))).toEqual(["Tom boss_of user"]);
    expect(rel(extractEntities("m", "I'm with Robin now, things with Taylor ended in spring."))).toEqual([
      "Robin partner_of user",
    ]);
    expect(rel(extractEntities("m", "Ava and I just moved in together."))).toEqual(["Ava partner_of user"]);
    expect(rel(extractEntities("m", "I'm dating Sam."))).toEqual(["Sam partner_of user"]);
    // "I'm with" a company is a job; "Sam and I went hiking" says nothing of love.
    expect(rel(extractEntities("m", "I'm with Google now."))).toEqual([]);
    expect(rel(extractEntities("m", "Sam and I went hiking."))).toEqual([]);
    // A nationality or an everyday word after "my sister is" names nobody.
    expect(rel(extractEntities("m", "My sister is Canadian."))).toEqual([]);
    expect(rel(extractEntities("m", "My boss is Happy and so am I."))).toEqual([]);
    expect(rel(extractEntities("m", "Coffee has been my favourite drink."))).toEqual([]);
  });

  it("reads where people live and work", () => {
    const m = extractEntities("m", "Marta lives in Bergen and her husband works at Equinor Group.");
    expect(rel(m)).toEqual(["Marta lives_in Bergen"]);
    expect(entity(m, "Bergen")?.kind).toBe("place");
    expect(entity(m, "Equinor Group")?.kind).toBe("organization");
    const me = extractEntities("m", "Last year I moved to Lisbon. I work at Acme Corp now.");
    expect(rel(me)).toEqual(["user moved_to Lisbon", "user works_at Acme Corp"]);
  });

  it("finds multi-word names, events and products", () => {
    const m = extractEntities("m", "We went to the Bergen Jazz Festival and I bought a Kindle there.");
    expect(entity(m, "Bergen Jazz Festival")?.kind).toBe("event");
    expect(entity(m, "Kindle")?.kind).toBe("product");
    expect(entity(extractEntities("m", "She studied at University of Oslo."), "University of Oslo")?.kind).toBe(
      "organization",
    );
  });

  it("does not take a capitalised sentence-initial word for a person", () => {
    expect(names(extractEntities("m", "Coffee is my favourite drink. Running helps me think."))).toEqual([]);
    expect(names(extractEntities("m", "Yesterday I felt great. Today too."))).toEqual([]);
    expect(names(extractEntities("m", "Monday was hard. I love Mondays? No."))).toEqual([]);
    // …but a person's verb after it does make it one.
    const ana = extractEntities("m", "Ana works as a marine biologist.");
    expect(entity(ana, "Ana")?.kind).toBe("person");
  });

  it("reads a conversation turn as the speaker's words", () => {
    const m = extractEntities("m", "Melanie: my daughter Emma started painting with me.");
    expect(names(m)).toEqual(["Emma"]);
    expect(entity(m, "Emma")?.aliases).toEqual(["my daughter", "Melanie's daughter"]);
    expect(rel(m)).toEqual(["Emma daughter_of Melanie"]);
    expect(m.related).toEqual([{ name: "Melanie", kind: "person", aliases: [] }]);
    expect(names(extractEntities("m", "Caroline: I went to a support group."))).toEqual([]);
  });
});

describe("Chinese rules", () => {
  it("ties a name to the relation word before it", () => {
    const m = extractEntities("m", "我表哥李明在北京工作。");
    expect(names(m)).toEqual(["李明", "北京"]);
    expect(entity(m, "李明")).toMatchObject({ kind: "person", aliases: ["表哥"] });
    expect(rel(m)).toEqual(["李明 cousin_of user", "李明 works_at 北京"]);
    expect(rel(extractEntities("m", "我的狗旺财很可爱"))).toEqual(["旺财 pet_of user"]);
    expect(rel(extractEntities("m", "我的朋友王小明是医生"))).toEqual(["王小明 friend_of user"]);
  });

  it("ties a name to the relation word after it, and where people live", () => {
    const m = extractEntities("m", "昨天见了张伟，张伟是我同事，张伟现在住在杭州市。");
    expect(rel(m)).toEqual(["张伟 colleague_of user", "张伟 lives_in 杭州市"]);
    expect(rel(extractEntities("m", "我去年搬到了成都"))).toEqual(["user moved_to 成都"]);
    expect(rel(extractEntities("m", "我在腾讯上班"))).toEqual(["user works_at 腾讯"]);
  });

  it("reads spouses, classmates and close friends, a school before the relation word, and a time after the name", () => {
    expect(rel(extractEntities("m", "李婉清：我先生叫方毅，在杭州一所中学教物理。"))).toEqual([
      "方毅 husband_of 李婉清",
    ]);
    expect(rel(extractEntities("m", "装修是我大学同学王磊的公司做的"))).toEqual(["王磊 classmate_of user"]);
    expect(rel(extractEntities("m", "我大学室友陈默也来捧场了"))).toEqual(["陈默 roommate_of user"]);
    expect(rel(extractEntities("m", "我闺蜜小芳下周请我吃饭"))).toEqual(["小芳 friend_of user"]);
    expect(rel(extractEntities("m", "阿哲：我妹妹佳佳下周要来北京玩"))).toEqual(["佳佳 sister_of 阿哲"]);
    expect(names(extractEntities("m", "我朋友周末要搬家"))).toEqual([]);
    expect(names(extractEntities("m", "我同学说这家店不错"))).toEqual([]);
  });

  it("ties the ways people introduce someone in Chinese, and not a job for a name", () => {
    expect(rel(extractEntities("m", "我有个哥哥，叫王磊。"))).toEqual(["王磊 brother_of user"]);
    expect(rel(extractEntities("m", "阿峰是我们组的领导，我直接向他汇报。"))).toEqual(["阿峰 boss_of user"]);
    expect(rel(extractEntities("m", "我和欣欣合租，她是我室友。"))).toEqual(["欣欣 roommate_of user"]);
    expect(entity(extractEntities("m", "我哥叫阿峰。"), "阿峰")?.aliases).toEqual(["哥哥"]);
    expect(rel(extractEntities("m", "我领导是小北。"))).toEqual(["小北 boss_of user"]);
    expect(rel(extractEntities("m", "我哥哥叫王磊。"))).toEqual(["王磊 brother_of user"]);
    expect(rel(extractEntities("m", "跟许言已经分了，我现在和小宇在一起。"))).toEqual(["小宇 partner_of user"]);
    expect(entity(extractEntities("m", "我和许言在一起快一年了。"), "许言")?.aliases).toEqual(["对象"]);
    expect(names(extractEntities("m", "我和同事在一起吃饭"))).toEqual([]);
    expect(names(extractEntities("m", "我哥是程序员。"))).toEqual([]);
    expect(names(extractEntities("m", "我爸是大夫。"))).toEqual([]);
    expect(names(extractEntities("m", "我上司干哪一行？"))).toEqual([]);
  });

  it("names nothing without a pattern", () => {
    expect(names(extractEntities("m", "今天天气很好，我们去公园散步了。"))).toEqual([]);
    expect(names(extractEntities("m", "我朋友说这家店不错"))).toEqual([]);
    expect(names(extractEntities("m", "我妈妈今天做了饺子"))).toEqual([]);
  });

  it("reads a Chinese turn as the speaker's words", () => {
    const m = extractEntities("m", "林晓：我表姐王芳下个月结婚");
    expect(entity(m, "王芳")?.aliases).toEqual(["表姐", "林晓的表姐"]);
    expect(rel(m)).toEqual(["王芳 cousin_of 林晓"]);
  });
});

describe("entity keys", () => {
  it("looks names and aliases up the same way a question writes them", () => {
    expect(entityKey("My Sister")).toBe("sister");
    expect(entityKey("my sister")).toBe(entityKey("sister"));
    expect(entityKey("「我表哥」")).toBe("表哥");
    expect(entityKey("  Ana  ")).toBe("ana");
    expect(entityKey("Melanie's daughter")).toBe("melanie's daughter");
  });
});

describe("linear time", () => {
  it("stays fast on hostile text", () => {
    const hostile = [
      "my ".repeat(20_000),
      "A".repeat(50_000),
      `${"Ana ".repeat(10_000)}lives in`,
      "我表哥".repeat(10_000),
      "我大学同学".repeat(10_000),
      "住在".repeat(20_000),
      `${"在".repeat(30_000)}工作`,
    ];
    for (const text of hostile) {
      const started = performance.now();
      extractEntities("m", text);
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});

describe("query keys", () => {
  it("names words, word runs and Han substrings a question may name an entity by", async () => {
    const { queryEntityKeys } = await import("../../src/memory/entities/query-keys");
    const en = queryEntityKeys("What does my sister do? Ask Melanie's daughter about the Bergen Jazz Festival");
    expect(en).toEqual(
      expect.arrayContaining(["sister", "melanie's daughter", "bergen jazz festival", "ana"].slice(0, 3)),
    );
    expect(en).not.toContain("what");
    expect(queryEntityKeys("我表哥在哪里工作？")).toEqual(expect.arrayContaining(["表哥", "表哥在"]));
    expect(queryEntityKeys("x ".repeat(5000)).length).toBeLessThanOrEqual(160);
  });
});
