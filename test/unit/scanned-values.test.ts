import { describe, expect, it } from "vitest";
import { prng } from "../../scripts/lib/bench-synthetic";
import { ATTRIBUTE_PATTERNS, parseAttributes } from "../../src/providers/rules/attributes";
import { SIGNALS } from "../../src/providers/rules/fact-signals";
import {
  beforeWords,
  findLabelledValue,
  labelledValue,
  stickyValue,
  toClauseEnd,
} from "../../src/providers/rules/scanned-values";

// The Chinese attribute patterns before the last ReDoS pass: a label, then a lazy bounded
// value with a lookahead, which recheck never settled. They are the reference the scans must agree
// with, in the order the scanned patterns appear in attributes.ts.
const NOW = "(?:现在|目前|已经|刚刚|刚|最近|一直|还){0,3}";
const V = "([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))";
const EMPLOYER = "([^，。！？,;；!?\\s]{1,20}?)";
const EMAIL = String.raw`((?:[^\s,;，；.。]|[.。](?!\s|$))(?:[^\s,;，；@.。]|[.。](?!\s|$)){0,63}@[^\s,;，；](?:[^\s,;，；.。]|[.。](?!\s|$)){0,254})(?![^\s,;，；.。]|[.。](?!\s|$))`;
/** Each reference pattern, with label variants (some that almost match) the generated texts start from. */
const OLD: [attribute: string, ended: boolean, source: string, labels: string[]][] = [
  [
    "email",
    false,
    `我的(?:邮箱|电子邮箱|邮件地址|email|e-mail)(?:地址)?(?:是|为|[:：])\\s*${EMAIL}`,
    ["我的邮箱是", "我的邮箱地址：", "我的e-mail为 ", "我的邮件地址是", "我的邮箱"],
  ],
  [
    "residence",
    false,
    `我${NOW}(?:住在|住于|定居在|定居于|生活在|搬到了|搬到|搬去了|搬去|搬家到了?)${V}`,
    ["我住在", "我现在住于", "我刚刚搬到了", "我搬去", "我搬家到了", "我一直还最近已经住在"],
  ],
  ["employer", false, `我${NOW}(?:就职于|任职于|供职于)${V}`, ["我就职于", "我现在任职于", "我刚刚刚供职于", "我就职"]],
  ["birthday", false, `我的?生日(?:是|为|在)${V}`, ["我的生日是", "我生日在", "我的生日为", "我的生日"]],
  [
    "name",
    false,
    `我的名字(?:是|叫)${V}|我名字叫${V}|我叫(?![了过着他她你它车外])${V}`,
    ["我的名字是", "我名字叫", "我叫", "我叫了", "我的名字叫", "我叫他"],
  ],
  ["residence", true, `我${NOW}(?:不再|不)住在${V}`, ["我不再住在", "我已经不住在", "我不住在", "我还不再住"]],
  ["residence", true, `我${NOW}(?:搬离|搬出)了?${V}`, ["我搬离", "我搬出了", "我刚搬出", "我搬出了了"]],
  ["employer", true, `我${NOW}(?:不再|不)在${EMPLOYER}(?:工作|上班)`, ["我不在", "我已经不再在", "我不再在", "我不"]],
  ["employer", true, `我${NOW}从${EMPLOYER}离职`, ["我从", "我刚从", "我现在从", "我现在"]],
  [
    "residence",
    true,
    `我(?:以前|之前|曾经)(?:住在|住于|生活在)${V}`,
    ["我以前住在", "我之前生活在", "我曾经住于", "我以前"],
  ],
  // What a life changes: written as lazy patterns first, read by scans like the others.
  ["employer", false, `我${NOW}(?:跳槽到|跳槽去|入职了?)${V}`, ["我跳槽到", "我刚入职了", "我跳槽"]],
  ["job", false, `我${NOW}转行(?:做|当)了?${V}`, ["我转行做", "我现在转行当了", "我转行", "我转行做了"]],
  ["school", false, `我${NOW}(?:转学到|转学去|考上了?)${V}`, ["我转学到", "我考上了", "我刚考上", "我转学"]],
  [
    "partner",
    false,
    `我的?(?:现在的)?(?:男朋友|女朋友|男友|女友|对象|老公|老婆|丈夫|妻子|爱人|未婚夫|未婚妻)(?:现在)?叫${V}`,
    ["我男朋友叫", "我的现在的女朋友叫", "我老公现在叫", "我对象"],
  ],
  ["car", false, `我的新?车是${V}`, ["我的车是", "我的新车是", "我的车"]],
  ["car", false, `我${NOW}新?(?:买|换)了一?辆${V}`, ["我买了一辆", "我刚换了辆新的", "我新买了辆", "我买了"]],
  [
    "pet:dog",
    false,
    `我(?:的|家的?)?(?:狗狗|小狗|狗)(?:现在)?叫${V}`,
    ["我的狗叫", "我家狗狗叫", "我家的小狗现在叫", "我狗"],
  ],
  ["pet:cat", false, `我(?:的|家的?)?(?:猫咪|小猫|猫)(?:现在)?叫${V}`, ["我的猫叫", "我家猫咪叫", "我猫叫", "我家猫"]],
  ["pet:rabbit", false, `我(?:的|家的?)?兔子(?:现在)?叫${V}`, ["我的兔子叫", "我家兔子现在叫", "我兔子"]],
  ["pet:kind", false, `我的宠物是${V}`, ["我的宠物是", "我的宠物是一只", "我的宠物"]],
];

/** Texts of up to `maxParts` pieces drawn from `alphabet` by a seeded generator: every run tries the same. */
function texts(alphabet: string[], count: number, seed: number, maxParts: number): string[] {
  const next = prng(seed);
  const pick = () => alphabet[Math.floor(next() * alphabet.length)];
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * maxParts) }, pick).join(""));
}

const WORDS = ["我", "我的", "现在", "刚", "住在", "搬到", "是", "在", "叫", "他", "不", "从", "工作"];
const VALUES = ["上海", "腾讯", "北", "一二三四五六七八九十", "ab", "x", "5月2日", "了", "啦", "呢", "工作", "上班"];
const ENDS = ["，", "。", "！", "?", ";", " ", "  ", "\t", "\n", "离职", "、"];
const EMAIL_PARTS = ["地址", "是", "：", " ", "a", "b.c", "@", ".", "。", ",", "，", "x@y", "..", "；", "我的邮箱是"];

/** A text: a few pieces, one of the pattern's labels, then a tail of pieces (the same seed, the same texts). */
function labelled(labels: string[], alphabet: string[], count: number, seed: number): string[] {
  const next = prng(seed);
  const pick = (from: string[]) => from[Math.floor(next() * from.length)];
  const pieces = (max: number) => Array.from({ length: Math.floor(next() * max) }, () => pick(alphabet)).join("");
  return Array.from({ length: count }, () => pieces(3) + pick(labels) + pieces(12));
}

const scanned = ATTRIBUTE_PATTERNS.flatMap((p) => ("scanned" in p ? [p] : []));

describe("Chinese attribute values read by a scan find what the lazy patterns found", () => {
  it("every scanned pattern has its reference, in order", () => {
    expect(scanned.map((p) => [p.attribute, p.ended === true])).toEqual(OLD.map(([a, e]) => [a, e]));
  });

  it.each(OLD.map((o, i) => [i, ...o] as const))(
    "pattern %i (%s, ended %s), on 20,000 generated texts",
    (i, _a, _e, source, labels) => {
      const old = new RegExp(source);
      const alphabet = i === 0 ? EMAIL_PARTS : [...WORDS, ...VALUES, ...ENDS];
      let matched = 0;
      for (const text of labelled(labels, alphabet, 20_000, 100 + i)) {
        const m = old.exec(text);
        const want = m ? (m.slice(1).find((g) => g !== undefined) ?? null) : null;
        if (want !== null) matched++;
        expect([text, findLabelledValue(scanned[i].scanned, text)]).toEqual([text, want]);
      }
      // The generator reaches the interesting cases: enough of the texts hold a value.
      expect(matched).toBeGreaterThan(500);
    },
  );

  it.each([
    ["我现在住在上海了，每天骑车上班", [{ attribute: "residence", value: "上海", ended: false }]],
    ["我搬到了北京", [{ attribute: "residence", value: "北京", ended: false }]],
    ["我已经不在腾讯工作了", [{ attribute: "employer", value: "腾讯", ended: true }]],
    // A time word before the verb (上个月) is read like 现在: the employer ended all the same.
    ["我上个月从字节跳动离职", [{ attribute: "employer", value: "字节跳动", ended: true }]],
    ["我从字节跳动离职了", [{ attribute: "employer", value: "字节跳动", ended: true }]],
    ["我的生日是5月2日", [{ attribute: "birthday", value: "5月2日", ended: false }]],
    ["我叫李雷", [{ attribute: "name", value: "李雷", ended: false }]],
    ["我的邮箱是 li.lei@example.cn。", [{ attribute: "email", value: "li.lei@example.cn", ended: false }]],
  ])("%j", (text, facts) => {
    expect(parseAttributes(text)).toEqual(facts);
  });

  it("a value longer than its bound is not read, and costs a bounded scan", () => {
    expect(parseAttributes(`我住在${"长".repeat(41)}`)).toEqual([]);
    expect(parseAttributes(`我住在${"长".repeat(40)}`)).toEqual([
      { attribute: "residence", value: "长".repeat(40), ended: false },
    ]);
  });
});

describe("the zh named-thing signal matches what its regex matched", () => {
  const old = /《[^》]{1,30}》|[\u4e00-\u9fff]{1,8}(?:公园|大学|公司|医院|书店|餐厅|咖啡馆|市|省|路|山|湖)/;
  const signal = SIGNALS.find((s) => s.name === "zh named thing");

  it("on 30,000 generated texts", () => {
    const alphabet = [
      "《",
      "》",
      "活着",
      "一二三四五六七八九十",
      "a",
      " ",
      "公园",
      "大学",
      "市",
      "湖",
      "去",
      "。",
      "《》",
    ];
    let hits = 0;
    for (const text of texts(alphabet, 30_000, 41, 14)) {
      const want = old.test(text);
      if (want) hits++;
      expect([text, signal?.pattern.test(text)]).toEqual([text, want]);
    }
    expect(hits).toBeGreaterThan(1_000);
  });
});

describe("scanned-values' building blocks", () => {
  it("a label must be global and a value pattern sticky: otherwise the search would not move on", () => {
    expect(() => labelledValue(/我叫/, toClauseEnd)).toThrow(/must be global/);
    expect(() => stickyValue(/a/g)).toThrow(/must be sticky/);
  });

  it("a value scan reads a bounded stretch: a run longer than its bound ends nothing", () => {
    const run = "字".repeat(100_000);
    expect(toClauseEnd(`${run}。`, 0)).toBe(-1);
    expect(beforeWords(["离职"], 20)(`${run}离职`, 0)).toBe(-1);
    expect(beforeWords(["离职"], 20)("腾讯离职", 0)).toBe(2);
    expect(findLabelledValue(labelledValue(/我叫/g, toClauseEnd), "我叫".repeat(50_000))).toBe("我叫".repeat(20));
  });
});
