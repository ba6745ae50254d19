/**
 * @module memory/entities/entity-rules-zh
 * Offline extraction for Chinese text: a name tied to a relation word (「我表哥李明」「李明是我表哥」),
 * where people live (「住在杭州」「搬到了成都」) and work (「在腾讯工作」). Chinese has no spaces and no
 * capitals, so only these patterns name an entity: precise rather than greedy. A name is two or
 * three Han characters (or a Latin word) cut before the first character that starts a predicate
 * (「李明在北京」 → 李明). Every regex is a fixed alternation followed by bounded runs: linear time.
 */

import type { Extraction } from "./entity-rules-en";
import type { EntityInput, EntityKind, RelationInput } from "./entity-types";
import { chinesePlaceAt, placeName } from "./gazetteer";
import { KIND_CUE, keepStronger } from "./kind-cues";
import { ZH_RELATIONS, ZH_SAID_ONCE, ZH_SAID_ONCE_CLASS } from "./relation-words";
import { looksLikeChineseName, namesPersonAfterIs } from "./zh-names";

const RELATION_WORDS = [...ZH_RELATIONS.keys()].sort((a, b) => b.length - a.length).join("|");
/** 「我(的)表哥李明」, 「我的狗旺财」, 「我朋友Tom」, 「我大学同学王磊」 (a school before the relation word). */
const MY_RELATION_NAME = new RegExp(
  `(?:我们的|我的|我)(?:大学|高中|初中|小学)?(${RELATION_WORDS})(?:叫|名叫)?(\\p{Script=Han}{2,4}|\\p{Lu}\\p{Ll}{1,20})`,
  "gu",
);
/** 「李明是我表哥」「阿峰是我们组的领导」 after a clause boundary. */
const NAME_IS_MY = new RegExp(
  `(?:^|[\\s，。！？、；：,.!?;:]|和|跟)(\\p{Script=Han}{2,3})(?:是|就是)我(?:们)?(?:组|部门|公司|团队|科室|单位)?(?:的)?(${RELATION_WORDS})`,
  "gu",
);
/** 「我哥叫阿峰」「我领导是小北」: a relation word (the immediate family's said once too), then 叫 or 是 and a name. */
const MY_RELATION_IS = new RegExp(
  `(?:我的|我)(${RELATION_WORDS}|${ZH_SAID_ONCE_CLASS})(叫|名叫|是)(\\p{Script=Han}{2,4}|\\p{Lu}\\p{Ll}{1,20})(?=$|[\\s，。！？、；：,.!?;:])`,
  "gu",
);
/** 「我有个哥哥，叫王磊」「我有一个姐姐叫小美」. */
const I_HAVE_A = new RegExp(
  `我有(?:一)?个(${RELATION_WORDS})[，,]?(?:叫|名叫)(\\p{Script=Han}{2,4}|\\p{Lu}\\p{Ll}{1,20})`,
  "gu",
);
/** 「我和欣欣合租」「我跟小美住在一起」: the user's flatmate. */
const SHARES_WITH = /我(?:和|跟)(\p{Script=Han}{2,3}|\p{Lu}\p{Ll}{1,20})(?:合租|同住|住在一起|住一起)/gu;
/** 「我现在和小宇在一起」「我跟阿杰谈恋爱了」: the user's partner (对象). */
const TOGETHER_WITH =
  /我(?:现在|已经|目前|正在|正)?(?:和|跟)(\p{Script=Han}{2,3}|\p{Lu}\p{Ll}{1,20})(?:已经|正式)?(?:在一起|谈恋爱|结婚|订婚|领证)/gu;
/** 「我叫张伟」「我的名字是张伟」: the speaker's own name, a whole clause's word (「我叫外卖了」 names nobody). */
const MY_NAME_IS =
  /(?:^|[\s，。！？、；：,.!?;:])(?:我叫|我名叫|我的名字是|我的名字叫)(\p{Script=Han}{2,4}|\p{Lu}\p{Ll}{1,20})(?=$|[\s，。！？、；：,.!?;:])/gu;
/** Words after which a gazetteer place is where someone is, goes or comes from (「去成都」「回浙江」「在北京」). */
const PLACE_BEFORE = new Set("在去到从回来飞".split(""));
/** 「住在杭州」: where someone lives or moved; who is what comes right before it (subjectBefore). */
const LIVES = /(住在|搬到了|搬到|搬去了|搬去|来自|定居在|定居)(\p{Script=Han}{2,6})/gu;
/** 「在腾讯工作」. */
const WORKS = /在([\p{Script=Han}\p{L}\p{N}]{2,10}?)(工作|上班|实习|任职)/gu;
/** Adverbs and times between a subject and its verb (「李明现在住在…」), longest first; the head they strip is 8 characters at most. */
const ADVERBS = [
  "上个月",
  "现在",
  "目前",
  "一直",
  "去年",
  "今年",
  "前年",
  "最近",
  "后来",
  "已经",
  "上周",
  "也",
  "还",
  "都",
];

/** `head` without the adverbs at its end, one word at a time (a `(?:…)+$` regex is quadratic). */
function withoutAdverbTail(head: string): string {
  let rest = head;
  for (let word = ADVERBS.find((w) => rest.endsWith(w)); word; word = ADVERBS.find((w) => rest.endsWith(w)))
    rest = rest.slice(0, -word.length);
  return rest;
}

/** Characters that start a predicate or a particle: a name ends before them. */
const NAME_STOP = new Set("在是住的了和也很去要会说喜刚都还就又才从给跟把被让对最已正不没有向为做买想觉".split(""));
/** Two-character words (times, measure phrases) a name also ends before; their characters are common in names. */
const NAME_STOP_PAIRS = new Set(
  "今天 明天 昨天 每天 今年 明年 去年 下个 上个 这个 那个 前天 后天 一直 现在 目前 已经 刚才 平时 下周 上周 这周 本周 周末 那天 昨晚 今晚 明晚 下次 上次".split(
    " ",
  ),
);
/** Characters a place name ends before (a verb or particle after the place). */
const PLACE_STOP = new Set("了的工上生读学住和，。开买玩去待呆定找念看".split(""));
/** A place ends after one of these (「杭州市西湖区」 keeps going; 「成都了」 stops before 了). */
const PLACE_SUFFIX = new Set("市省县区镇村州国岛".split(""));

/** The name at the start of `run`: cut before the first stop character, two characters at least. */
function nameOf(run: string): string | null {
  if (/^\p{Lu}/u.test(run)) return run;
  const chars = [...run];
  let end = 0;
  while (end < chars.length && !NAME_STOP.has(chars[end]) && !NAME_STOP_PAIRS.has(chars[end] + (chars[end + 1] ?? "")))
    end++;
  return end >= 2 ? chars.slice(0, Math.min(end, 3)).join("") : null;
}

function placeOf(run: string): string | null {
  const chars = [...run];
  let end = 0;
  while (end < chars.length && !PLACE_STOP.has(chars[end])) {
    end++;
    if (PLACE_SUFFIX.has(chars[end - 1]) && end >= 2 && !PLACE_SUFFIX.has(chars[end] ?? "")) break;
  }
  return end >= 2 ? chars.slice(0, end).join("") : null;
}

const PREDICATES: Record<string, string> = {
  住在: "lives_in",
  搬到了: "moved_to",
  搬到: "moved_to",
  搬去了: "moved_to",
  搬去: "moved_to",
  来自: "from",
  定居在: "lives_in",
  定居: "lives_in",
};

class Collector {
  readonly entities = new Map<string, EntityInput>();
  readonly relations: RelationInput[] = [];
  add(name: string, kind: EntityKind, cue: number): EntityInput {
    const e = this.entities.get(name) ?? { name, kind, cue, aliases: [] };
    keepStronger(e, { kind, cue });
    this.entities.set(name, e);
    return e;
  }
}

/**
 * Who the clause ending at `before` is about: 「我」 is `self`; a name an earlier pattern found, when
 * the text right before (adverbs aside) ends with it; else nobody (a pronoun, an unknown word).
 */
function subjectBefore(text: string, before: number, self: string, c: Collector): string | null {
  const head = withoutAdverbTail(text.slice(Math.max(0, before - 8), before));
  if (head.endsWith("我")) return self;
  for (const name of c.entities.keys()) if (head.endsWith(name)) return name;
  return null;
}

/** Places of the gazetteer right after a word of where (「去成都」「回浙江」): one map lookup per character. */
function gazetteerPlaces(text: string, c: Collector): void {
  const chars = [...text];
  for (let i = 0; i + 1 < chars.length; i++) {
    if (!PLACE_BEFORE.has(chars[i])) continue;
    const place = chinesePlaceAt(chars, i + 1);
    if (place) c.add(place, "place", KIND_CUE.context);
  }
}

/** Entities and relations of one Chinese text; `self` is who 「我」 is (the user, or the speaker of a turn). */
export function extractChinese(text: string, self: string, selfAlias: (relation: string) => string[]): Extraction {
  const c = new Collector();
  const tie = (name: string, rel: string) => {
    const info = ZH_RELATIONS.get(rel)!;
    c.add(name, info.kind, KIND_CUE.relation).aliases.push(rel, ...selfAlias(rel));
    c.relations.push({ subject: name, predicate: info.predicate, object: self });
  };
  for (const m of text.matchAll(MY_RELATION_NAME)) {
    const name = nameOf(m[2]);
    // Without 叫 a person's name must read as one (「我上司干哪一行」 names nobody); a pet's may not.
    const named = m[0].includes("叫") || ZH_RELATIONS.get(m[1])?.kind !== "person";
    if (name && !ZH_RELATIONS.has(name) && (named || looksLikeChineseName(name))) tie(name, m[1]);
  }
  for (const m of text.matchAll(MY_RELATION_IS)) {
    const name = m[3];
    // Said once (「我哥」), stored as the word a question looks it up by (哥哥).
    const rel = ZH_SAID_ONCE[m[1]] ?? m[1];
    if (ZH_RELATIONS.has(name) || (m[2] === "是" && !namesPersonAfterIs(name) && !/^\p{Lu}/u.test(name))) continue;
    tie(name, rel);
  }
  for (const m of text.matchAll(I_HAVE_A)) {
    const name = nameOf(m[2]);
    if (name && !ZH_RELATIONS.has(name)) tie(name, m[1]);
  }
  for (const m of text.matchAll(TOGETHER_WITH)) {
    const name = nameOf(m[1]);
    if (name !== null && (/^\p{Lu}/u.test(name) || looksLikeChineseName(name))) tie(name, "对象");
  }
  for (const m of text.matchAll(SHARES_WITH)) {
    const name = m[1];
    if (/^\p{Lu}/u.test(name) || looksLikeChineseName(name)) tie(name, "室友");
  }
  for (const m of text.matchAll(NAME_IS_MY)) {
    const name = nameOf(m[1]);
    if (name && name.length === m[1].length && name !== "这个" && name !== "那个") tie(name, m[2]);
  }
  for (const m of text.matchAll(LIVES)) {
    const subject = subjectBefore(text, m.index, self, c);
    const place = placeOf(m[2]);
    if (subject === null || place === null) continue;
    c.add(place, "place", KIND_CUE.context);
    c.relations.push({ subject, predicate: PREDICATES[m[1]], object: place });
  }
  for (const m of text.matchAll(MY_NAME_IS)) {
    const name = nameOf(m[1]);
    if (name !== m[1] || ZH_RELATIONS.has(name)) continue;
    c.add(name, "person", KIND_CUE.relation);
    c.relations.push({ subject: name, predicate: "name_of", object: self });
  }
  gazetteerPlaces(text, c);
  for (const m of text.matchAll(WORKS)) {
    const subject = subjectBefore(text, m.index, self, c);
    if (subject === null) continue;
    const place = PLACE_SUFFIX.has(m[1].at(-1) ?? "") || placeName(m[1]);
    c.add(m[1], place ? "place" : "organization", KIND_CUE.context);
    c.relations.push({ subject, predicate: "works_at", object: m[1] });
  }
  return { entities: [...c.entities.values()], relations: c.relations };
}
