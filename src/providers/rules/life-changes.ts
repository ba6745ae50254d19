/**
 * @module providers/rules/life-changes
 * Two contradictions the attribute patterns cannot name, for the conflict rules (decide-conflict.ts):
 * a habit that changed ("I drink oolong every morning" → "I switched to green tea"; "I run 5k every
 * morning" → "I stopped running"; 「我每天坐地铁上班」 → 「现在改骑电动车了」) and a number that was
 * corrected ("I have 2 kids" → "I have 3 kids"; 「房租每月三千」 → 「房租每月三千五」). Each needs
 * positive evidence: a habit needs a frequency word in the old memory, a switch word in the new one
 * and a shared area of life (drink, commute, exercise, meals, sleep); a number needs the same words
 * around a different number, and no word that dates a single event ("today", 「昨天」). Pure; every
 * pattern is a plain alternation (linear).
 */
import { normalise, stem } from "./text";

/** A habit: something done at a frequency ("every morning", "usually", "before breakfast", 「每天」「平时」). */
const FREQUENCY =
  /\b(?:every|each)\s+(?:day|morning|evening|night|week|weekend|weekday|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\b(?:daily|usually|always|normally|nightly|weekly|most (?:days|mornings|evenings|nights))\b|\b(?:before breakfast|after work|before bed|on (?:weekends|weekdays|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays))\b|每天|每日|每个?周[一二三四五六日天末]|每个?星期[一二三四五六日天]|每周|每星期|每晚|每早|每天早上|每个?周末|平时|平常|一般|通常|总是|经常|天天/;

/**
 * A switch: the new habit replaces the old one ("switched to", "instead", "now I …", "I take the metro
 * to work now", a correction's "actually", 「改」「换成」「其实」). "now" after anything else is not one:
 * "I'm drinking tea now" is the moment.
 */
const SWITCH =
  /\b(?:switched|changed|moved|converted|went back)\s+(?:over\s+)?(?:to|from)\b|\bswapped\b|\bscratch that\b|\binstead\b|\bnowadays\b|\bthese days\b|\bactually\b|\bnow\s+i\b|\bi(?:'m|\s+am)?\s+now\b|^i\s+(?:take|ride|cycle|bike|drive|walk|drink|eat|have|do|go|use)\b[^.!?]{0,60}?\bnow[.!]?$|改成|改为|换成|换了|改骑|改喝|改吃|改坐|改走|改跑|改用|改去|改了|其实|不对|说错了|更正/;

/** Giving a habit up: "I stopped running", "I've given up swimming", "I don't run anymore", 「不再」「戒了」「不喝拿铁了」. */
const STOPPED_EN = /\b(?:stopped|quit|gave up|given up|giving up|no longer|don't|do not)\s+([a-z]+)/;
const STOPPED_ZH = /不再|戒了|戒掉|不[跑喝吃骑坐开游打练去做玩学抽][\u4e00-\u9fff]{0,4}?了/;

/**
 * The habit a switch names as the one it replaces: "swapped the yoga for a walk", "switched from coffee
 * to tea", "tea instead of coffee", "replaced my run with a swim", 「把地铁换成电动车」. Only an old
 * habit holding that word changes; "I love hiking on weekends" is not the yoga that was swapped.
 */
const REPLACED_EN =
  /\b(?:swapped|traded|replaced)\s+(?:the\s+|my\s+|our\s+)?([a-z]+)\s+(?:for|with)\b|\b(?:switched|changed|moved)\s+(?:over\s+)?from\s+(?:the\s+|my\s+)?([a-z]+)|\binstead\s+of\s+(?:the\s+|my\s+)?([a-z]+)/;
const REPLACED_ZH = /把(\p{Script=Han}{1,4}?)(?:换成|改成|换掉)/u;

/** Areas of life a habit belongs to, by the words that name them (English stems and Chinese words). */
const AREAS: Record<string, { en: readonly string[]; zh: readonly string[] }> = {
  drink: {
    en: ["drink", "coffee", "tea", "oolong", "latte", "espresso", "matcha", "juice", "cappuccino", "chai"],
    zh: ["喝", "茶", "咖啡", "乌龙", "拿铁", "果汁", "豆浆", "牛奶"],
  },
  commute: {
    en: ["commute", "subway", "metro", "bus", "train", "drive", "bike", "cycle", "e-bike", "scooter", "tram", "car"],
    zh: ["上班", "通勤", "地铁", "公交", "开车", "骑", "自行车", "电动车", "打车", "步行", "走路"],
  },
  exercise: {
    en: ["run", "runn", "jog", "swim", "gym", "yoga", "workout", "exercis", "lift", "pilat", "hike", "5k", "10k"],
    zh: [
      "跑步",
      "游泳",
      "健身",
      "瑜伽",
      "锻炼",
      "运动",
      "跑",
      "游",
      "爬山",
      "徒步",
      "骑行",
      "打球",
      "羽毛球",
      "网球",
      "乒乓球",
      "篮球",
      "足球",
      "散步",
      "普拉提",
    ],
  },
  meal: {
    en: ["breakfast", "lunch", "dinner", "eat", "cereal", "oatmeal", "porridge"],
    zh: ["早餐", "早饭", "午饭", "午餐", "晚饭", "晚餐", "吃"],
  },
  sleep: { en: ["sleep", "bed", "wake"], zh: ["睡", "起床", "上床", "休息"] },
};

const WORD = /[a-z0-9][a-z0-9'-]*/g;

function stems(text: string): Set<string> {
  return new Set([...text.matchAll(WORD)].map((m) => stem(m[0])));
}

/** The English cues as the stemmer leaves them ("cycle" → "cycl"), so they meet the text's stems. */
const AREA_STEMS = Object.entries(AREAS).map(([area, cue]) => ({ area, en: new Set(cue.en.map(stem)), zh: cue.zh }));

function areasOf(text: string): Set<string> {
  const words = stems(text);
  const found = new Set<string>();
  for (const { area, en, zh } of AREA_STEMS)
    if ([...words].some((w) => en.has(w)) || zh.some((w) => text.includes(w))) found.add(area);
  return found;
}

/** "I <verb> … every morning": the speaker's own habit (a fact worth keeping: extract-facts.ts). */
const I_DO =
  /^(?:(?:actually|also|and|so|but|now|these days|nowadays),?\s+){0,2}i\s+(?!(?:am|'m|was|will|'ll|would|'d|think|guess|hope|wish|wonder|mean|can|could|should|might|may|need|want)\b)[a-z]/;

/** A habit of the speaker's, or a switch of one ("I switched to green tea"): a lasting fact, not an event. */
export function statesHabit(normalised: string): boolean {
  if (!I_DO.test(normalised)) return false;
  return FREQUENCY.test(normalised) || (SWITCH.test(normalised) && areasOf(normalised).size > 0);
}

export interface Habit {
  /** States a frequency: the old side of a change. */
  frequent: boolean;
  /** States a switch or a stop: the new side. */
  switched: boolean;
  /** The verb stopped ("running" → "runn"), when it says one. */
  stopped: string | null;
  /** The habit the switch names as replaced ("swapped the yoga for…" → "yoga", 「把地铁换成…」 → 地铁). */
  replaced: string | null;
  areas: Set<string>;
  stems: Set<string>;
  /** The normalised text (Chinese words are matched in it). */
  text: string;
}

export function readHabit(raw: string): Habit {
  const text = normalise(raw);
  const stop = STOPPED_EN.exec(text);
  return {
    frequent: FREQUENCY.test(text),
    switched: SWITCH.test(text) || stop !== null || STOPPED_ZH.test(text),
    stopped: stop ? stem(stop[1]) : null,
    replaced: replacedHabit(text),
    areas: areasOf(text),
    stems: stems(text),
    text,
  };
}

function replacedHabit(text: string): string | null {
  const en = REPLACED_EN.exec(text);
  const word = en?.[1] ?? en?.[2] ?? en?.[3];
  if (word !== undefined) return stem(word);
  return REPLACED_ZH.exec(text)?.[1] ?? null;
}

/** Whether the old habit holds the word the switch names as replaced (any habit when it names none). */
function holdsReplaced(next: Habit, old: Habit): boolean {
  if (next.replaced === null) return true;
  return /\p{Script=Han}/u.test(next.replaced) ? old.text.includes(next.replaced) : old.stems.has(next.replaced);
}

/**
 * The new memory changes the old one's habit: the old states a frequency, the new a switch in the
 * same area of life (or stops the very thing the old does), and the new is not itself the same habit
 * restated (a new frequency statement with no switch word). A switch that names what it replaced
 * ("swapped the yoga for…") changes only an old habit holding that word.
 */
export function habitChanged(next: Habit, old: Habit): string | null {
  if (!old.frequent || !next.switched || !holdsReplaced(next, old)) return null;
  if (next.stopped !== null && old.stems.has(next.stopped)) return "habit-stopped";
  for (const area of next.areas) if (old.areas.has(area)) return `habit-changed (${area})`;
  return null;
}

/** A number in digits, Chinese numerals or an English word up to twelve. */
const NUMBER =
  /\d+(?:[.,]\d+)?|[零〇一二两三四五六七八九十百千万]+|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b/g;
/** Words that date one event: two such statements are two events, not a correction. */
const ONE_EVENT =
  /\b(?:today|yesterday|tonight|this (?:morning|afternoon|evening|week)|last (?:night|week|weekend|month|year)|ago|just)\b|今天|昨天|前天|刚才|刚刚|上周|上个?月|去年|那天/;
/** A frame that speaks of the user, or of what they pay, earn or weigh. */
const OWN_FRAME = /^(?:i|i'm|i'v|my|我)(?:\s|$)|^我/;
const OWN_AMOUNT = /房租|工资|月薪|年薪|体重|身高|每月|每个月|\b(?:rent|salary|mortgage|weigh|height)\b/;
/** Words that only say "this is a correction"; dropped before the frames are compared. */
const CORRECTION_WORDS = /\b(?:actually|correction|sorry|i meant|oops)\b|其实|不对|说错了|应该是|更正一下|纠正一下/g;

function frame(text: string): { frame: string; numbers: string[] } {
  const plain = normalise(text)
    .replace(CORRECTION_WORDS, " ")
    .replace(/[^\p{L}\p{N}\s.,]/gu, " ");
  const numbers = [...plain.matchAll(NUMBER)].map((m) => m[0]);
  const words = plain
    .replace(NUMBER, " # ")
    .replace(/[.,]/g, " ")
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .map((w) => (/\p{Script=Han}/u.test(w) ? w : stem(w)));
  return { frame: words.join(" "), numbers };
}

/**
 * The same statement with a different number ("I have 2 kids" → "I have 3 kids", 「我今年34岁」 →
 * 「我今年35岁」): a corrected or updated number. Not when either dates a single event.
 */
export function numberCorrected(next: string, old: string): boolean {
  if (ONE_EVENT.test(normalise(next)) || ONE_EVENT.test(normalise(old))) return false;
  const a = frame(next);
  const b = frame(old);
  if (a.numbers.length === 0 || a.numbers.length > 2 || a.numbers.length !== b.numbers.length) return false;
  // About the user ("I have …", "my rent …", 「我今年…」, 「房租每月…」): "Visited museum number 2" is not.
  if (a.frame !== b.frame || !(OWN_FRAME.test(a.frame) || OWN_AMOUNT.test(a.frame))) return false;
  return a.numbers.filter((n, i) => n !== b.numbers[i]).length === 1;
}

/** A correction says so: "sorry, I got it wrong", "oops", "I meant", 「说错了」「搞错了」. */
const CORRECTING =
  /\b(?:sorry|i got it wrong|got that wrong|i was wrong|correction|oops|i meant|my mistake|actually)\b|说错了|搞错了|记错了|更正|纠正|不对/;
/** The value a correction takes back: "…, not the 14th", "not in May", 「不是十四号」. */
const NOT_EN = /\bnot\s+(?:on\s+|in\s+|at\s+)?(?:the\s+)?([a-z0-9][a-z0-9.'-]{0,20})\b/;
const NOT_ZH = /不是(\p{Script=Han}{1,8}|[0-9]{1,4}[\p{Script=Han}]{0,2})/u;
/** Words too common to say two statements are about the same thing. */
const SHARED_MIN_LETTERS = 4;

/**
 * A correction that names the value it takes back: "Sorry, I got it wrong earlier: Priya's wedding is
 * on the 21st, not the 14th" corrects "my sister Priya's wedding is on the 14th of next month" — the old
 * holds the 14th and shares a word of what it is about (Priya, wedding). Needs a word of correcting, the
 * value named after "not" / 不是 in the old statement, and one more shared word of four letters or a
 * Chinese pair.
 */
export function valueCorrected(next: string, old: string): boolean {
  const n = normalise(next);
  const o = normalise(old);
  if (!CORRECTING.test(n)) return false;
  const zh = NOT_ZH.exec(n)?.[1];
  const en = NOT_EN.exec(n)?.[1];
  const taken = zh ?? en;
  if (taken === undefined) return false;
  const holds = zh !== undefined ? o.includes(zh) : new Set(o.match(WORD) ?? []).has(taken);
  if (!holds) return false;
  return sharesAWord(n.replace(taken, " "), o.replace(taken, " "));
}

function sharesAWord(a: string, b: string): boolean {
  const long = (t: string) =>
    new Set(
      [...t.matchAll(WORD)]
        .map((m) => m[0])
        .filter((w) => w.length >= SHARED_MIN_LETTERS)
        .map((w) => stem(w)),
    );
  const wordsB = long(b);
  if ([...long(a)].some((w) => wordsB.has(w) && !CORRECTING.test(w))) return true;
  const pairs = (t: string) =>
    new Set([...(t.match(/\p{Script=Han}{2,}/gu) ?? [])].flatMap((run) => [...run].slice(1).map((c, i) => run[i] + c)));
  const pairsB = pairs(b);
  return [...pairs(a)].some((p) => pairsB.has(p));
}
