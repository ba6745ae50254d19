/**
 * The conflict rules on what a life changes: home, employer and job, partner, school,
 * diet, a habit, phone, e-mail, car, pet and a corrected number, in English and Chinese — each new
 * statement supersedes the old one, and the near misses next to each supersede nothing.
 */
import { describe, expect, it } from "vitest";
import { decideConflictByRules } from "../../src/providers/rules/decide-conflict";

const decide = (next: string, old: string) =>
  decideConflictByRules(next, [{ handle: 1, content: old, category: "personal" }]);

/** [old, new]: the new one supersedes the old. */
const CHANGES: [string, string][] = [
  ["I live in Lisbon", "I moved to Munich last month"],
  ["我住在北京", "我搬到杭州了"],
  ["I work at Northwind", "I started a new job at Zalando"],
  ["I work at Northwind", "I got a job at Zalando"],
  ["I work for Northwind", "I've started working at Zalando"],
  ["我在腾讯工作", "我跳槽到阿里巴巴了"],
  ["我在腾讯上班", "我入职了字节跳动"],
  ["我在腾讯上班", "我现在去字节跳动上班了"],
  ["My job is accounting", "I started working as a designer"],
  ["我是一名老师", "我转行做设计师了"],
  ["My girlfriend's name is Mia", "I'm dating Lena now"],
  ["My girlfriend is called Mia", "I broke up with Mia"],
  ["我男朋友叫李雷", "我现在的男朋友叫张伟"],
  ["我男朋友叫李雷", "我和李雷分手了"],
  ["Taylor is my partner.", "I'm with Robin now, things with Taylor ended in spring."],
  ["Ava and I just moved in together.", "I'm with Luca now, things with Ava ended in spring."],
  ["我和许言在一起快一年了。", "跟许言已经分了，我现在和小宇在一起。"],
  ["I study at Stanford", "I transferred to UCLA"],
  ["I'm a student at Stanford", "I'm studying at MIT now"],
  ["我在北京大学读书", "我转学到复旦大学了"],
  ["I'm vegetarian", "I went vegan"],
  ["I'm a vegetarian", "I eat meat again"],
  ["我吃素", "我又开始吃肉了"],
  ["我吃素", "我不吃素了"],
  ["I drink oolong every morning", "I switched to green tea"],
  ["I run 5k every morning", "I stopped running"],
  ["I take the bus to work every day", "I cycle to work now instead"],
  ["我每天坐地铁上班", "现在改骑电动车了"],
  ["我每天早上喝咖啡", "我改喝茶了"],
  ["My phone number is 0151 7654321", "My new number is 0176 1234567"],
  ["我的手机号是13800000000", "我的新手机号是13911111111"],
  ["My email is ana@old.example", "My new email is ana@new.example"],
  ["I drive a Golf", "I drive a Tesla now"],
  ["我开的是大众", "我换了一辆特斯拉"],
  ["My dog is called Rex", "My dog's name is Bruno"],
  ["我家狗叫旺财", "我的狗狗叫豆豆"],
  ["My pet is a cat", "My pet is a rabbit"],
  ["I take the subway to work every day", "Now I bike to work"],
  ["I usually have oatmeal for breakfast", "These days I have eggs for breakfast instead"],
  ["我每周去三次健身房", "我改成在家练瑜伽"],
  ["I do twenty minutes of yoga before breakfast", "I've swapped the yoga for a morning walk with a podcast"],
  ["我每个周六都去爬山", "周六改成去学游泳了，山好久没爬了"],
  ["I drink coffee every morning", "I switched from coffee to green tea"],
  ["I'm a nurse at St Mary's hospital in Leeds.", "I got a job as a midwife at Southmead Hospital."],
  ["I go swimming every Tuesday and Thursday evening.", "I've given up swimming"],
  ["I do yoga on Mondays", "I stopped doing yoga"],
  ["My girlfriend Elin is a vet.", "Update: Elin and I split up last month."],
  ["My girlfriend Elin is a vet.", "I've started seeing someone new, her name is Maja."],
  ["My husband, Pete, is a plumber.", "Pete and I divorced in May."],
  ["I usually cycle to the office.", "I take the metro to work now."],
  ["I'm a software engineer at Spotify in Stockholm.", "I quit Spotify!"],
  ["I work at Spotify.", "Starting at Klarna next Monday!"],
  ["我每天坐地铁上班", "我把地铁换成电动车了"],
  ["我每周三晚上去打羽毛球。", "我羽毛球不打了，最近改成每天晚上散步。"],
  ["我在上海一家外企做会计。", "我现在在一家医院做行政"],
  ["我平时早上喝拿铁。", "我已经不喝拿铁了"],
  ["你好，我叫李娜，在杭州的一家互联网公司当产品经理。", "我从原来的公司辞职了"],
  ["你好，我叫李娜，在杭州的一家互联网公司当产品经理。", "我下周一去阿里报到"],
  ["I work at Spotify.", "I quit my job"],
  [
    "Quick one: my sister Priya's wedding is on the 14th of next month.",
    "Sorry, I got it wrong earlier: Priya's wedding is on the 21st, not the 14th.",
  ],
  ["小雅的婚礼定在十四号。", "说错了，小雅的婚礼是二十一号，不是十四号。"],
  ["I have 2 kids", "Actually I have 3 kids"],
  ["I have two kids", "Sorry, I have three kids"],
  ["My rent is 1200 euros a month", "My rent is 1350 euros a month"],
  ["我今年34岁", "我今年35岁"],
  ["I'm 1.78 m tall.", "Oops, I'm 1.82 m, not 1.78."],
  ["我身高一米七二。", "说错了，我一米七五。"],
  ["我在携程上班，做护士。", "今天是我在一家做跨境电商的公司的第一天！"],
  ["I live in Berlin", "We just moved to Hamburg"],
  ["I'm a teacher at Westfield High", "I quit teaching and now I work as a UX designer at Figma"],
  ["我在字节跳动上班", "我上个月入职了腾讯"],
  ["我在一所国际学校干了两年产品经理了。", "我跳槽去美团了，这周刚入职。"],
  [
    "I rent a place in Lyon, close to the river.",
    "Big news: I've moved to Dublin, the keys were handed over last week.",
  ],
  ["Home for me is a small flat in Rotterdam.", "I moved to Valencia last month."],
  ["房租每月三千", "房租每月三千五"],
];

/** [old, new]: no contradiction — different things, two events, a habit restated, a description. */
const NOT_CHANGES: [string, string][] = [
  ["I live in Lisbon", "I work at Zalando"],
  ["I drink oolong every morning", "I run 5k every morning"],
  ["I drink oolong every morning", "I bought green tea for my mother"],
  ["I run 5k every morning", "I swim on Sundays too"],
  ["I ran 5k today", "I ran 10k today"],
  ["我今天跑了5公里", "我昨天跑了10公里"],
  ["My wife is pregnant", "My wife is called Anna"],
  ["My dog is called Rex", "My cat is called Luna"],
  ["I'm vegetarian", "I like spicy food"],
  ["我每天坐地铁上班", "我喜欢喝茶"],
  ["I have 2 kids", "I have 2 cats"],
  ["I drink oolong every morning", "I'm drinking green tea now"],
  ["Visited museum number 1 of the tour of 14 rooms", "Visited museum number 2 of the tour of 14 rooms"],
  ["I have 2 kids and 3 cats", "I have 3 kids and 4 cats"],
  ["我男朋友是医生", "我男朋友叫李雷"],
  ["Taylor is my partner.", "I'm with Google now."],
  ["I'm a student at Stanford", "I work at Google"],
  ["I'm 1.78 m tall.", "I'm 1.78 m tall too, like my dad."],
  ["Taylor is my partner.", "This is my partner's car."],
  // A switch that names what it replaced changes that habit only, not another of the same area.
  ["I love hiking in the mountains on weekends.", "I've swapped the yoga for a morning walk with a podcast."],
  ["I swim every Sunday", "I switched from running to cycling"],
  ["我每个周末都去爬山", "我把瑜伽换成散步了"],
  ["我在上海一家外企做会计。", "我在家做饭"],
  ["I work at Spotify", "I quit smoking"],
  ["I work at Spotify", "The concert is starting at eight."],
  ["The red car is fast.", "Actually I prefer the blue one, not the red one."],
  ["My sister's wedding is on the 14th.", "The party is on the 21st, not the 14th."],
  ["I usually cycle to the office.", "I'm drinking tea now."],
  ["My girlfriend Elin is a vet.", "Elin and I went to Paris."],
  ["My girlfriend loves pasta.", "My girlfriend Elin is a vet."],
];

describe("the conflict rules on what a life changes", () => {
  it.each(CHANGES)("%s → %s supersedes", (old, next) => {
    const d = decide(next, old);
    expect(d.supersedes, d.reason).toEqual([1]);
    expect(d.duplicateOf).toBeNull();
  });

  it.each(NOT_CHANGES)("%s → %s supersedes nothing", (old, next) => {
    const d = decide(next, old);
    expect(d.supersedes, d.reason).toEqual([]);
  });

  it("keeps the rest of a memory when only its habit changed (partial supersede)", () => {
    const d = decide("I switched to green tea", "I drink oolong every morning and I teach yoga on weekends");
    expect(d.supersedes).toEqual([1]);
    expect(d.remainders).toEqual([{ handle: 1, content: "I teach yoga on weekends" }]);
    // An "and" inside a time is not two facts: the time stays whole, and nothing of it is left alone.
    const times = decide("I moved to Bristol", "I go swimming every Tuesday and Thursday evening and I live in Leeds");
    expect(times.remainders).toEqual([{ handle: 1, content: "I go swimming every Tuesday and Thursday evening" }]);
    expect(
      decide("I've given up swimming", "I go swimming every Tuesday and Thursday evening").remainders,
    ).toBeUndefined();
    const zh = decide("我搬到杭州了", "我住在北京，每天坐地铁上班");
    expect(zh.supersedes).toEqual([1]);
    expect(zh.remainders).toEqual([{ handle: 1, content: "我每天坐地铁上班" }]);
  });

  it("names the rule that fired", () => {
    expect(decide("I switched to green tea", "I drink oolong every morning").reason).toBe(
      "rules: habit-changed (drink) #1",
    );
    expect(decide("I have 3 kids", "I have 2 kids").reason).toBe("rules: number-corrected #1");
    expect(decide("I went vegan", "I'm vegetarian").reason).toBe("rules: attribute-changed (diet) #1");
  });
});

describe("extraction keeps both sides of a change", () => {
  it("keeps a habit and the turn that changes it, whatever opens the sentence", async () => {
    const { extractFactsByRules } = await import("../../src/providers/rules/extract-facts");
    const facts = extractFactsByRules([
      { role: "user", content: "I take the subway to work every day." },
      { role: "assistant", content: "OK." },
      { role: "user", content: "Actually now I bike to work." },
    ]).map((f) => [f.content, f.category]);
    expect(facts).toEqual([
      ["I take the subway to work every day.", "personal"],
      ["now I bike to work.", "personal"],
    ]);
  });
});
