/**
 * @module providers/rules/extract-facts
 * Rule-based fact extraction from a transcript: the user's own first-person sentences that state
 * a preference, a personal fact, a plan or a constraint, kept verbatim. Assistant and system turns
 * are never mined (the assistant's words are not facts about the user), nor are questions,
 * greetings, thanks or requests aimed at the assistant.
 */
import type { ExtractedFact } from "../../memory/ports";
// The write pipeline's own filler test, so "thanks!" is judged the same way here as on save.
import { assessValue } from "../../memory/write/value-filter";
import { chatTalk } from "./chat-talk";
import { splitChineseClauses, splitCompound, withDroppedI } from "./clause-split";
import { signalScore, speaksOfSelf } from "./fact-signals";
import { statesHabit } from "./life-changes";
import { aboutSomeoneKnown, namesADay } from "./others-and-dates";
import {
  isChineseStatement,
  statementBeforeQuestion,
  withoutAddressedClauses,
  withoutFiller,
  withoutRequestClauses,
  ZH_OPINION,
} from "./statement-parts";
import { keepSubject, learnContext, newSpeakerContext, withPerson } from "./subject-kept";
import { bare, normalise, splitSentences } from "./text";

/** "event": something that happened to the user or that they did ("I just moved to Lisbon", 「我去了绿禾公园」). */
export type FactCategory = "preference" | "personal" | "plan" | "constraint" | "event";

/**
 * Evidence a sentence needs to be kept (see fact-signals): a category rule counts 2, so a plain
 * "I love hiking." passes and "I love how you did it!" (2, minus 2 for "you") does not. Measured on
 * LoCoMo's observations (npm run bench:extract): 1 keeps coverage and precision both near 0.7.
 */
const KEEP_THRESHOLD = 1;
/** A first-person sentence this long says something about the user even with no signal, unless counter-evidence weighs it down. */
const LONG_SENTENCE_WORDS = 12;
const CATEGORY_WEIGHT = 2;

interface CategoryRule {
  category: FactCategory;
  /** A pattern, or a scan where one linear pattern cannot say it. */
  pattern: { test(text: string): boolean };
}

const I_AM = String.raw`\b(?:i'm|i am|im)\s+`;
const EN_ADVERBS = String.raw`(?:(?:really|also|still|just|absolutely|totally|definitely|much|do|don't|do not|no longer|never|kind of)\s+)*`;
const ZH_ADVERBS = "(?:也|还|很|真的|非常|特别|最|更|比较|一直|都|不|不太|并不|现在|已经|超|挺|蛮|从来)*";

const MY = /\bmy\s+/g;
const THING_CHAR = /[\p{L}' ]/u;
const IS_AFTER = /\s+(?:is|are|was)\b/y;
/** How many characters of the thing "my … is" may name. */
const THING_MAX = 30;

/**
 * "my <1–30 letters, apostrophes, spaces> is/are/was", as `\bmy\s+[\p{L}' ]{1,30}?\s+(?:is|are|was)\b`
 * said on normalised text (single spaces): that pattern's thing and its `\s+` both take spaces, which
 * recheck's fuzz checker calls polynomial. Each "my" is followed by at most 30 steps.
 */
export function myThingIs(text: string): boolean {
  for (const m of text.matchAll(MY)) {
    let at = m.index + m[0].length;
    for (let n = 0; n < THING_MAX; n++) {
      const cp = text.codePointAt(at);
      if (cp === undefined) break;
      const ch = String.fromCodePoint(cp);
      if (!THING_CHAR.test(ch)) break;
      at += ch.length;
      IS_AFTER.lastIndex = at;
      if (IS_AFTER.test(text)) return true;
    }
  }
  return false;
}

const HOLDS_DEAR =
  /\bmy\s+(?:all[- ]time\s+|top\s+)?(?:favou?rites|faves?)\b|\b(?:is|are)\s+(?:(?:really|so|very|particularly|especially|super)\s+)?(?:interesting|important|meaningful|dear|precious)\s+to\s+me\b|\bmatters?\s+(?:(?:a lot|so much|the most)\s+)?to\s+me\b/;
const YOU_ARE = /\b(?:you're|you are|youre|ur)\b/;

// First match wins, so the order resolves overlaps: "can't stand" is a dislike, not a constraint;
// "I'm allergic" and "I'm going to" are not generic "I'm" facts.
const RULES: CategoryRule[] = [
  // A birthday is a date in someone's life, not a plan ("My daughter's birthday is next month").
  { category: "personal", pattern: /\bbirthday\b|生日/ },
  { category: "plan", pattern: { test: changeAhead } },
  { category: "preference", pattern: /\bi\s+(?:really\s+|just\s+)?(?:can't|cannot|can not)\s+stand\b/ },
  {
    category: "constraint",
    pattern:
      /\bi\s+(?:really\s+|just\s+|absolutely\s+|simply\s+)?(?:(?:can't|cannot|can not|must not|mustn't)(?!\s+(?:wait|remember|recall|believe|find|figure|decide|tell|say|understand|stop|help|imagine|think|get|seem)\b)|don't eat|do not eat|don't drink|do not drink|never|have to avoid|need to avoid|avoid)\b|\b(?:i'm|i am|im)\s+(?:severely\s+|very\s+|mildly\s+|a bit\s+)?(?:allergic|intolerant|lactose intolerant|gluten intolerant|not allowed)\b/,
  },
  { category: "personal", pattern: /^我属[鼠牛虎兔龙蛇马羊猴鸡狗猪]/ },
  { category: "constraint", pattern: { test: (text: string) => ZH_SHORT_TRAIT.test(text) } },
  {
    category: "constraint",
    pattern: /我[^，。！？,]{0,4}?(?:不能|不可以|不吃|不喝|不碰|忌口|吃不了|喝不了|从不)|对[^，。！？,]{1,12}?过敏/,
  },
  {
    category: "preference",
    pattern: new RegExp(
      String.raw`\b(?:i|we)\s+${EN_ADVERBS}(?:like|love|prefer|hate|enjoy|dislike|adore|detest|loathe|cherish|treasure)\b|\bi(?:'d| would)\s+(?:much\s+)?(?:rather|prefer)\b|${I_AM}(?:really\s+|so\s+|not\s+)?(?:into|a (?:big |huge )?fan of|fond of)\b|\bmy\s+(?:all[- ]time\s+)?favou?rite\b`,
    ),
  },
  // "Drawing flowers is one of my faves", "Family time matters to me": what the speaker holds dear
  // ("You're one of my favorites" is praise of the other speaker).
  { category: "preference", pattern: { test: (text) => HOLDS_DEAR.test(text) && !YOU_ARE.test(text) } },
  {
    category: "preference",
    pattern: new RegExp(`我${ZH_ADVERBS}(?:喜欢|爱(?!人)|热爱|讨厌|偏好|偏爱|钟爱|喜爱|反感)`),
  },
  {
    category: "plan",
    pattern: new RegExp(
      String.raw`\bi\s+(?:really\s+|also\s+|still\s+|definitely\s+)?(?:plan|intend|aim|hope|want|wanna|will|shall)\b|\bi'll\b|\bi(?:'d| would) like to\b|${I_AM}(?:planning|going to|gonna|about to|thinking of|thinking about|considering|hoping to|aiming to)\b|\bmy\s+(?:goal|plan|dream|resolution|aim)\b`,
    ),
  },
  {
    category: "plan",
    pattern:
      /我[^，。！？,]{0,6}?(?:打算|计划|准备|决定)|^(?:打算|计划|准备)|(?:明天|后天|下周|下个?星期|下个?月|明年|年底|月底|周末)[^，。！？,]{0,6}?(?:要|会去|去|得)|我(?:也|还|很|真的|一直|特别|非常|正|明年|下个月|下周|今年|周末|将来|以后){0,3}(?:想要|想|要)(?![是的让你])/,
  },
  {
    category: "personal",
    pattern: new RegExp(
      String.raw`${I_AM}(?!(?:not\s+)?(?:sure|fine|good|ok|okay|here|back|ready|sorry|glad|happy to|afraid|wondering|trying|looking|asking|curious|just|going|confused|done|tired|hungry|bored|busy|excited|kidding|joking)\b)|\bi\s+(?:(?:don't|do not|can't|cannot)\s+)?(?:live|work|was born|grew up|studied|study|graduated|speak|own|have|come from)\b`,
      "u",
    ),
  },
  // "Home for me is a small flat in Rotterdam", "Lisbon is what I call home".
  { category: "personal", pattern: /^home (?:for (?:me|us) )?is\b|\bi call home\b/ },
  {
    // "I'm definitely going to keep up with my German lessons": a plan with a word of certainty before it.
    category: "plan",
    pattern: new RegExp(
      String.raw`${I_AM}(?:definitely|really|also|still|totally|actually|probably|seriously|finally)\s+(?:planning|going to|gonna|about to|thinking of|thinking about|hoping to)\b`,
    ),
  },
  { category: "personal", pattern: { test: myThingIs } },
  // "I drink oolong every morning": a habit, which a later "I switched to green tea" may replace.
  { category: "personal", pattern: { test: statesHabit } },
  {
    category: "personal",
    pattern:
      /^my\s+(?:mom|mother|dad|father|sister|brother|wife|husband|partner|girlfriend|boyfriend|son|daughter|kids|children|aunt|uncle|grandma|grandpa|cousin|niece|nephew|best friend|friend)\b/,
  },
  {
    category: "personal",
    pattern:
      /^我(?:的)?(?:爱人|老公|老婆|妻子|丈夫|女儿|儿子|孩子|爸爸|妈妈|父亲|母亲|哥哥|姐姐|弟弟|妹妹|男朋友|女朋友|猫|狗)(?:是|叫|在|今年)/,
  },
  {
    category: "personal",
    pattern:
      /我(?:是|叫(?![了过着])|住在|住|来自|出生|今年|有|的[^，。！？]{1,8}?(?:是|叫|在))|我[^，。！？]{0,2}?在[^，。！？]{1,12}?(?:工作|上班|上学|读书|念书)/,
  },
];

const EN_MOVE =
  /\b(?:i'm|i am|im|we're|we are)\s+(?:moving|relocating|leaving|starting|flying|getting married|having a baby)\b/;
const EN_AHEAD =
  /\b(?:next (?:week|weekend|month|year|summer|spring|fall|autumn|winter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|tomorrow|soon|this (?:weekend|summer|fall|winter|spring)|in (?:january|february|march|april|may|june|july|august|september|october|november|december))\b/;

/** "I'm moving to Lisbon next month": a change ahead of the conversation is a plan. */
function changeAhead(text: string): boolean {
  return EN_MOVE.test(text) && EN_AHEAD.test(text);
}

/** Requests and meta-talk that look first-person but are about the conversation, not the user. */
const NOT_A_FACT =
  /帮我|请你|麻烦你|\bi (?:want|need|would like|'d like) you\b|\bi'd like you\b|\bi (?:want|wanted|need) to (?:know|ask|understand|check|see)\b|\bi have (?:a|another|one more|some|a quick) questions?\b|\bi'm (?:asking|wondering)\b|我是说|我是不是|我有(?:个|一个|几个)?问题|(?<!说)我有[点些]|我想(?:让你|请你|问|知道|了解一下)|我要你|我想是|再看看|再想想|再说吧|先这样|我会注意|我知道了|我明白了|我记住了/;

const ZH_CLAUSE = /[，,；;]/;

/**
 * A Chinese sentence without its clauses of meta-talk or bare feeling, when a clause of another kind
 * remains (「我妈也是糖尿病，所以我有点担心」 → 「我妈也是糖尿病」); null when there are none or nothing would be left.
 */
export function withoutMetaClauses(sentence: string): string | null {
  if (!/\p{Script=Han}/u.test(sentence)) return null;
  const clauses = sentence
    .split(ZH_CLAUSE)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
  const kept = clauses.filter((c) => !NOT_A_FACT.test(normalise(c)));
  return kept.length > 0 && kept.length < clauses.length ? kept.join("，") : null;
}

/** 「哦不对，是两千五」「我说错了，应该是三千」: a correction of the amount just said. */
const ZH_CORRECTION =
  /^(?:(?:哦|噢|啊|呃|嗯)[，,]?)?(?:不对|不是|说错了|我说错了|更正一下|纠正一下)[，,、\s]*(?:应该是|是)([^，。！？,!?]{1,12})/;
/** A number, in digits or in Chinese numerals (两千五, 3.5). */
const ZH_AMOUNT = /\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千万亿]+/g;
/** What a correction may say beside its amount: a unit (块, 楼, 岁), not a phrase of its own. */
const ZH_UNIT_MAX = 2;

/**
 * The fact with its last amount replaced by the one a correction gives (「车贷，每个月两千」 +
 * 「不对，是两千五」 → 「车贷，每个月两千五」), or null when the sentence corrects no amount the fact holds
 * (「不对，是一个儿子一个女儿」 says more than an amount and is judged as a sentence of its own).
 */
export function correctedAmount(fact: string, sentence: string): string | null {
  const said = ZH_CORRECTION.exec(normalise(sentence))?.[1].trim();
  const first = said === undefined ? undefined : [...said.matchAll(ZH_AMOUNT)][0];
  if (said === undefined || first === undefined || first.index !== 0) return null;
  const amount = first[0];
  if (said.length - amount.length > ZH_UNIT_MAX) return null;
  const last = [...fact.matchAll(ZH_AMOUNT)].pop();
  if (last === undefined || last[0] === amount) return null;
  return fact.slice(0, last.index) + amount + fact.slice(last.index + last[0].length);
}

/** A correction reaches the fact of the user's same message or of their message before. */
const CORRECTION_REACH = 2;

/** A sentence that only says how the speaker feels now (「今天好累啊」「我太开心了」): chat, not a fact. */
const ZH_BARE_FEELING =
  /^(?:今天|最近|现在|这几天)?我?(?:也|真的|真|好|太|很|超|有点)+(?:累|困|饿|烦|忙|开心|高兴|难过|紧张|无聊|郁闷)(?:啊|呀|了|啦|哦|死了)*[。！!~～…]*$/;

/** A short trait of the speaker's body or birth year that needs no more words (「我恐高」「我晕车」「我属虎」). */
const ZH_SHORT_TRAIT = /^我(?:也|比较|很|特别)?(?:怕冷|怕热|恐高|晕车|晕船|晕机|属[鼠牛虎兔龙蛇马羊猴鸡狗猪])/;

const QUESTION_END = /(?:[?？]|吗[。.!！~～]*|呢)\s*$/;
/** 「我也养了一只猫呢。」 states; 「那该怎么办呢。」 asks: a closed 呢 asks only beside a question word. */
const CLOSED_NE = /呢[。.!！~～]+\s*$/;
const ZH_QUESTION_WORD = /什么|怎么|哪|谁|多少|为什么|几/;
const ASKS_ASSISTANT = /^(?:can|could|would|will|do|did|are|is) (?:you|u)\b/;

function isQuestion(sentence: string): boolean {
  if (QUESTION_END.test(sentence) || ASKS_ASSISTANT.test(sentence)) return true;
  return CLOSED_NE.test(sentence) && ZH_QUESTION_WORD.test(sentence);
}

const ZH_PAST_TIME = /昨天|前天|上周|上星期|上个?月|去年|前年|前几天|那天|刚才|刚刚/;
const ZH_DONE = /了|过/;

/** A Chinese statement no rule names: something that happened at a past time (「上个月我去了一趟云南」) is an event. */
function zhKind(text: string): FactCategory {
  return ZH_PAST_TIME.test(text) && ZH_DONE.test(text) ? "event" : "personal";
}

/** 「不对，最近不跑了」: the words that mark a correction are not part of what it says (nor 「我不对」 with the subject put back). */
const ZH_CORRECTION_OPENING = /^(?:哦|噢|啊)?(?:不对|说错了)[，,]\s*/;

/** Category of one sentence, or null when it is not a first-person fact worth keeping. */
export function classifySentence(sentence: string): FactCategory | null {
  const text = normalise(sentence);
  if (text.length === 0 || isQuestion(text) || NOT_A_FACT.test(text) || ZH_OPINION.test(text)) return null;
  if (ZH_BARE_FEELING.test(text)) return null;
  if (chatTalk(text) !== null) return null;
  if (!assessValue(sentence).keep) return null;
  const category = RULES.find((r) => r.pattern.test(text))?.category ?? null;
  // Chinese leaves the subject out of what a speaker says of themselves (「最近在准备马拉松」).
  if (!speaksOfSelf(text)) {
    if (isChineseStatement(text) && signalScore(text) >= 0) return category ?? zhKind(text);
    // What a person they know does, a thing of theirs on a day (others-and-dates.ts).
    if (aboutSomeoneKnown(sentence)) return category ?? "personal";
    return namesADay(sentence) ? (category ?? "plan") : null;
  }
  const score = signalScore(text) + (category ? CATEGORY_WEIGHT : 0);
  const long = text.split(" ").length >= LONG_SENTENCE_WORDS;
  const zh = isChineseStatement(text) && score >= 0;
  if (score < KEEP_THRESHOLD && !(long && score >= 0) && !zh) return null;
  return category ?? (zh ? zhKind(text) : "event");
}

/** The statement a sentence makes: filler and requests stripped, and the part before a question when it asks one. */
function statementOf(sentence: string): string | null {
  const plain = withoutRequestClauses(withoutFiller(sentence));
  if (!isQuestion(normalise(plain))) return plain;
  const before = statementBeforeQuestion(plain);
  return before === null ? null : withoutFiller(before);
}

function toFact(content: string, category: FactCategory, turn: number): ExtractedFact {
  return {
    content,
    category,
    // Plans and events happen at a time and go stale; the rest are lasting traits.
    memoryType: category === "plan" || category === "event" ? "episodic" : "semantic",
    priority: category === "personal" || category === "constraint" ? 2 : 3,
    turn,
  };
}

/**
 * Facts from the user's turns, in order, one per qualifying sentence (a compound English sentence
 * one per clause), each with its subject and topic kept, without repeats.
 */
export function extractFactsByRules(messages: { role: string; content: string }[]): ExtractedFact[] {
  const facts: ExtractedFact[] = [];
  const seen = new Set<string>();
  const context = newSpeakerContext();
  for (const [turn, message] of messages.entries()) {
    if (message.role.trim().toLowerCase() !== "user") continue;
    for (const said of splitSentences(message.content)) {
      const previous = facts[facts.length - 1];
      const corrected =
        previous && turn - (previous.turn ?? -9) <= CORRECTION_REACH ? correctedAmount(previous.content, said) : null;
      if (corrected !== null) {
        seen.delete(bare(previous.content));
        seen.add(bare(corrected));
        previous.content = corrected;
        continue;
      }
      // "She loves ceramics" is judged as what it says: "My sister loves ceramics".
      const stated = statementOf(said)?.replace(ZH_CORRECTION_OPENING, "") ?? null;
      let sentence = stated === null ? null : withPerson(stated, context, turn);
      let category = sentence === null ? null : (classifySentence(sentence) ?? classifySentence(stated!));
      // A Chinese sentence that also speaks to the assistant keeps what it says of the speaker.
      const own = category === null && sentence !== null ? withoutAddressedClauses(sentence) : null;
      if (own !== null) [sentence, category] = [own, classifySentence(own)];
      // …and one that also says how the speaker feels or talks about the talk keeps its other clauses.
      const plain = category === null && sentence !== null ? withoutMetaClauses(sentence) : null;
      if (plain !== null) [sentence, category] = [plain, classifySentence(plain)];
      if (sentence !== null && category !== null) {
        const parts = splitCompound(withDroppedI(sentence)).flatMap(splitChineseClauses);
        // 「…，我觉得也行」: an opinion clause beside the facts is the speaker's view of them, not a fact.
        for (const part of parts.length > 1 ? parts.filter((p) => !ZH_OPINION.test(p)) : parts) {
          const content = keepSubject(part, context, turn);
          learnContext(part, context, turn);
          const key = bare(content);
          if (seen.has(key)) continue;
          seen.add(key);
          facts.push(toFact(content, classifySentence(part) ?? category, turn));
        }
      }
      learnContext(said, context, turn);
    }
  }
  return facts;
}
