/**
 * @module memory/write/paraphrase
 * One canonical wording for the near-duplicate test, so that paraphrases of one statement compare
 * equal: contractions spelled out ("don't" → "do not"), number words as digits ("seven" / 「七岁」 →
 * 7), British spellings American, a small table of synonyms of one concept (named/called, mum/mother,
 * 衣服/服装, 爱吃/喜欢吃, 上班/工作) and Chinese particles dropped (的, 了, 着, 很, 都, 在; 一名 after 是). It never
 * maps one person, number, place or date onto another. Also the people a text names (kinship
 * words, capitalised names in order), which must match for two texts to be one fact. Pure.
 */

import { DIGITS } from "../text/time-expressions-zh";

const EN_NUMBERS: Record<string, string> = {
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
  ten: "10",
  eleven: "11",
  twelve: "12",
  twenty: "20",
  thirty: "30",
};

/** Whole-word English replacements: spellings, then synonyms of one concept (lower case). */
const EN_WORDS: Record<string, string> = {
  colour: "color",
  favourite: "favorite",
  flavour: "flavor",
  neighbour: "neighbor",
  humour: "humor",
  named: "called",
  normally: "usually",
  mom: "mother",
  mum: "mother",
  mommy: "mother",
  dad: "father",
  daddy: "father",
  large: "big",
  huge: "big",
  bicycle: "bike",
  cycle: "bike",
  cuisine: "food",
  flat: "apartment",
  scared: "afraid",
  enjoy: "like",
  enjoys: "likes",
  love: "like",
  loves: "likes",
  total: "complete",
  developer: "engineer",
  fluently: "fluent",
  own: "have",
  cannot: "can not",
};

/** Phrases first (they contain words the table above would change). */
const EN_PHRASES: [RegExp, string][] = [
  [/\bwon't\b/g, "will not"],
  [/\bcan't\b/g, "can not"],
  [/n't\b/g, " not"],
  [/'m\b/g, " am"],
  [/'re\b/g, " are"],
  [/'ve got\b/g, " have"],
  [/\bhave got\b/g, "have"],
  [/'ve\b/g, " have"],
  [/'ll\b/g, " will"],
  [/\bgrew up\b/g, "grow"],
  [/\b(?:was|were) raised\b/g, "grow"],
  [/\b(?:get|got|gets) up\b/g, "wake up"],
  [/\bworks? as\b/g, "is"],
  [/\btogether with\b/g, "with"],
];

/** Chinese synonyms of one concept → one spelling (longest first where they overlap). */
const ZH_WORDS: [RegExp, string][] = [
  [/衣服|衣裳/g, "服装"],
  [/单车|脚踏车/g, "自行车"],
  [/母亲|妈(?!妈)/g, "妈妈"],
  [/父亲|爸(?!爸)/g, "爸爸"],
  [/老婆|太太/g, "妻子"],
  [/老公/g, "丈夫"],
  [/教师/g, "老师"],
  [/上班/g, "工作"],
  [/计划/g, "打算"],
  [/讲(?=[英中日法德韩]|普通话|粤语)/g, "说"],
  [/学习/g, "学"],
  [/读书(?!馆)/g, "看书"],
  [/爱(?=吃|喝|听|看|玩|跑|去|唱|跳|旅)/g, "喜欢"],
  [/爱(?=跑步|游泳|爬山|旅游|旅行)/g, "喜欢"],
  [/旅行/g, "旅游"],
  [/(?<=[\d零〇一二两三四五六七八九十百千万])块(?!钱)/g, "元"],
  [/(?<=[\d零〇一二两三四五六七八九十])号/g, "日"],
  [/害怕/g, "怕"],
  [/名叫/g, "叫"],
  [/跟(?=[^，。]{0,6}住)/g, "和"],
  [/当(?=护士|老师|医生|厨师|司机)/g, "做"],
  [/从来不|从不/g, "不"],
  [/我家的/g, "我的"],
  [/正在/g, "在"],
  [/(?<=是|做|当)一(?:名|个|位)/g, ""],
  // What one likes to eat or drink is what one likes (喜欢吃火锅 / 喜欢火锅), and likes to go and do.
  [/(?<=喜欢)[吃喝去]/g, ""],
];

/** Chinese numerals before a unit or classifier ("七岁", "十一点", "三口人", "五千元") become digits. */
const ZH_NUMBER = /[零〇一二两三四五六七八九十百千万]{1,6}(?=[岁点口个只次位名公斤元块天年月日号周])/g;

function zhNumber(text: string): string {
  let total = 0;
  let section = 0;
  let digit = -1;
  for (const c of text) {
    if (c in DIGITS) digit = DIGITS[c];
    else {
      const unit = c === "十" ? 10 : c === "百" ? 100 : c === "千" ? 1000 : 10_000;
      const n = (digit < 0 ? 1 : digit) * unit;
      if (unit === 10_000) {
        total = (section + (digit < 0 ? 0 : digit)) * 10_000;
        section = 0;
      } else section += n;
      digit = -1;
    }
  }
  return String(total + section + (digit < 0 ? 0 : digit));
}

function chinese(text: string): string {
  let out = text;
  for (const [pattern, to] of ZH_WORDS) out = out.replace(pattern, to);
  // 一 alone is a word part (一直, 一起, 一样) more often than a number: only with a unit, never "一".
  out = out.replace(ZH_NUMBER, (n) => (n === "一" ? n : zhNumber(n)));
  // Particles, 很/都 and 在 (progressive or "at") only split the bigrams of the words around them.
  return out.replace(/[的了很都在]|着(?![急想])/g, "");
}

function english(text: string): string {
  let out = text.toLowerCase().replace(/[’‘`]/g, "'");
  for (const [pattern, to] of EN_PHRASES) out = out.replace(pattern, to);
  return out.replace(/[a-z]+/g, (w) => EN_NUMBERS[w] ?? EN_WORDS[w] ?? w);
}

/** The text in the canonical wording the near-duplicate test compares. */
export function canonicalWording(text: string): string {
  return english(chinese(text.normalize("NFKC")));
}

const KIN_EN =
  /\b(?:mother|father|parents?|sisters?|brothers?|siblings?|sons?|daughters?|kids?|child|children|wife|husband|partner|boyfriend|girlfriend|friends?|aunt|uncle|niece|nephew|cousin|grand(?:ma|pa|mother|father|son|daughter)|boss|colleague|coworker|neighbou?r|roommate|in-law)\b/g;
const KIN_ZH =
  /妈妈|爸爸|父母|妹妹|姐姐|哥哥|弟弟|儿子|女儿|孩子|妻子|丈夫|男朋友|女朋友|朋友|叔叔|舅舅|阿姨|姑姑|奶奶|爷爷|外婆|外公|同事|老板|邻居|室友/g;
/** A capitalised word (a name), sentence-initial or not; common sentence openers are not names. */
const NAME = /\b[A-Z][a-z]+\b/g;
const NOT_NAMES = new Set(
  "I My The A An On In At Every Each Our We He She They It This That There Prefers Likes Loves Has Is Was Two Three Four Five Six Seven Eight Nine Ten".split(
    " ",
  ),
);

/**
 * Who a text is about: its kinship and role words (as a set) and its names (in order), in the
 * canonical wording. "My sister loves cats" and "I love cats" differ; so do "Alex gave Sam a book"
 * and "Sam gave Alex a book".
 */
export function peopleOf(text: string): string {
  const wording = canonicalWording(text);
  const kin = [...new Set([...(wording.match(KIN_EN) ?? []), ...(wording.match(KIN_ZH) ?? [])])].sort();
  const names = (text.normalize("NFKC").match(NAME) ?? []).filter((n) => !NOT_NAMES.has(n));
  return `${kin.join(",")}|${names.join(",")}`;
}
