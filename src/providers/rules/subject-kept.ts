/**
 * @module providers/rules/subject-kept
 * A kept sentence should say whom and what it is about on its own, because it is recalled alone:
 * the subject a Chinese speaker leaves out is put back (「每天大概练半小时」 → 「我每天大概练半小时」),
 * a sentence-initial "she"/「她」 names the relative or friend the user just spoke of ("She loves
 * ceramics" → "My sister loves ceramics"), and a word that needs the subject of the conversation
 * gets it ("I'm a complete beginner" after learning the piano → "I'm a complete beginner at piano",
 * 「我想考级」 → 「我想考钢琴级」). What the user said earlier in the conversation is the only
 * context: the assistant's words never enter a fact. Pure; every pattern is a flat alternation or a
 * bounded class (linear).
 */
import { ZH_DROPPED_SUBJECT_OPENING } from "./statement-parts";

/** "n": an animal, named back by 它. */
type Gender = "f" | "m" | "n" | "?";

interface Person {
  /** How the fact names them: "My sister", 「我妈妈」, 「阿杰」. */
  name: string;
  gender: Gender;
}

/** What the user has said so far that later sentences lean on. */
export interface SpeakerContext {
  en: { person?: Person; personTurn?: number; topic?: string };
  zh: { person?: Person; personTurn?: number; topic?: string };
}

export function newSpeakerContext(): SpeakerContext {
  return { en: {}, zh: {} };
}

const EN_RELATIONS: Record<string, Gender> = {
  mom: "f",
  mother: "f",
  sister: "f",
  wife: "f",
  girlfriend: "f",
  daughter: "f",
  aunt: "f",
  grandma: "f",
  grandmother: "f",
  niece: "f",
  dad: "m",
  father: "m",
  brother: "m",
  husband: "m",
  boyfriend: "m",
  son: "m",
  uncle: "m",
  grandpa: "m",
  grandfather: "m",
  nephew: "m",
};
const EN_RELATION = new RegExp(
  String.raw`\bmy\s+(?:little\s+|older\s+|younger\s+|big\s+)?(${Object.keys(EN_RELATIONS).join("|")})\b`,
  "i",
);
const EN_PRONOUN_START = /^(she|he)(?='s\b|\s)/i;

const ZH_RELATIONS: Record<string, Gender> = {
  妈妈: "f",
  母亲: "f",
  姐姐: "f",
  妹妹: "f",
  老婆: "f",
  妻子: "f",
  太太: "f",
  女朋友: "f",
  女儿: "f",
  奶奶: "f",
  外婆: "f",
  爸爸: "m",
  父亲: "m",
  哥哥: "m",
  弟弟: "m",
  老公: "m",
  丈夫: "m",
  男朋友: "m",
  儿子: "m",
  爷爷: "m",
  外公: "m",
  外甥: "m",
  表妹: "f",
  表姐: "f",
  堂妹: "f",
  堂姐: "f",
  表哥: "m",
  表弟: "m",
  堂哥: "m",
  堂弟: "m",
  婆婆: "f",
  岳母: "f",
  公公: "m",
  岳父: "m",
  // 「我妈」「我爸」 after 妈妈 and 爸爸, so the longer word is named when it is said.
  妈: "f",
  爸: "m",
  对象: "?",
  导师: "?",
  老板: "?",
  室友: "?",
  同事: "?",
  闺蜜: "f",
};
/** 「我表妹」, or a relative taken along without 我: 「带女朋友去日本」「跟老公商量」. */
const ZH_RELATION = new RegExp(
  `(?:我(?:的)?|(?:带|和|跟|陪|给)(?:我)?)(${Object.keys(ZH_RELATIONS).join("|")})(?:叫([\\u4e00-\\u9fff]{2})(?![\\u4e00-\\u9fff]))?`,
);
/** A pet's name: 「一只橘猫叫土豆」「我家狗狗名叫旺财」. */
const ZH_PET_NAME = /(?:猫|狗|猫咪|狗狗|兔子|鹦鹉|仓鼠)(?:叫|名叫|名字叫)([\u4e00-\u9fff]{2})(?![\u4e00-\u9fff])/;
/** A friend named by a nickname: 「老同学小周」「朋友阿杰」. */
const ZH_NICKNAME = /(?:同学|朋友|同事|室友|闺蜜)((?:小|阿)[\u4e00-\u9fff])/;
/** 「她…」, or after a time word 「最近它…」: the pronoun is the clause's subject either way. */
const ZH_PRONOUN_START = /^((?:最近|今天|昨天|前天|前几天|上周|这几天|平时|现在|以前|后来)?)(她|他|它)(?!们)/;

/** The person a sentence introduces, if any. */
function personIn(sentence: string): { en?: Person; zh?: Person } {
  const en = EN_RELATION.exec(sentence);
  const zh = ZH_RELATION.exec(sentence);
  const nick = ZH_NICKNAME.exec(sentence);
  const pet = ZH_PET_NAME.exec(sentence);
  return {
    ...(en ? { en: { name: `My ${en[1].toLowerCase()}`, gender: EN_RELATIONS[en[1].toLowerCase()] } } : {}),
    ...(zh
      ? { zh: { name: zh[2] ?? `我${zh[1]}`, gender: ZH_RELATIONS[zh[1]] } }
      : pet
        ? { zh: { name: pet[1], gender: "n" as Gender } }
        : nick
          ? { zh: { name: nick[1], gender: "?" as Gender } }
          : {}),
  };
}

const PRONOUN_GENDER: Record<string, Gender> = { she: "f", 她: "f", he: "m", 他: "m", 它: "n" };

/** 它 names only an animal; 她 and 他 a person of that gender or of none said. */
const fits = (p: Person | undefined, pronoun: string): p is Person => {
  const want = PRONOUN_GENDER[pronoun.toLowerCase()];
  return p !== undefined && (p.gender === want || (p.gender === "?" && want !== "n"));
};

/**
 * How many messages back 「她」 may still name the person last spoken of: Chinese keeps a topic person
 * across a chain of sentences by pronoun alone, so the user's last two messages (with the assistant's
 * between); English "she" reaches only the user's previous message.
 */
const ZH_PERSON_REACH = 4;

/** "She …" / 「她…」 at the start names the person of the user's recent message (ZH_PERSON_REACH). */
export function withPerson(sentence: string, ctx: SpeakerContext, turn: number): string {
  const en = EN_PRONOUN_START.exec(sentence);
  const enPerson = ctx.en.person;
  if (en && fits(enPerson, en[1]) && turn - (ctx.en.personTurn ?? -9) <= 2)
    return enPerson.name + sentence.slice(en[1].length);
  const zh = ZH_PRONOUN_START.exec(sentence);
  const zhPerson = ctx.zh.person;
  if (zh && fits(zhPerson, zh[2]) && turn - (ctx.zh.personTurn ?? -9) <= ZH_PERSON_REACH)
    return zh[1] + zhPerson.name + sentence.slice(zh[0].length);
  return sentence;
}

/** What the user is learning: 「学钢琴」「开始学吉他」, "learning the piano", "piano lessons". */
const ZH_TOPIC = /学(?![了过的会习])([\u4e00-\u9fff]{2})(?=[，。！？,.!?；]|$)/;
const EN_TOPIC =
  /\b(?:learn|learning|learned|learnt|started|starting|taking up|took up|practicing|practising)\s+(?:to play\s+|how to play\s+|to speak\s+)?(?:the\s+)?(piano|guitar|violin|drums|cello|flute|ukulele|saxophone|singing|painting|pottery|ceramics|chess|swimming|surfing|climbing|coding|programming|cooking|baking|yoga|portuguese|spanish|french|german|italian|japanese|chinese|korean|english)\b|\b(piano|guitar|violin|drums|singing|swimming|surfing|yoga|cooking|portuguese|spanish|french|japanese)\s+lessons\b/i;

const EN_NEEDS_TOPIC = /\b(beginner|novice|newbie)\b(?!\s+(?:at|in|with|to)\b)/i;

/** A word that means nothing without the thing learnt gets it, when the sentence does not name it. */
function withTopic(sentence: string, ctx: SpeakerContext): string {
  const en = ctx.en.topic;
  if (en && !sentence.toLowerCase().includes(en.toLowerCase())) {
    const m = EN_NEEDS_TOPIC.exec(sentence);
    if (m) return `${sentence.slice(0, m.index + m[0].length)} at ${en}${sentence.slice(m.index + m[0].length)}`;
  }
  const zh = ctx.zh.topic;
  if (!zh || sentence.includes(zh)) return sentence;
  return sentence
    .replace(/(新手|初学者|小白)/, `${zh}$1`)
    .replace(/零基础/, `${zh}零基础`)
    .replace(/考级/, `考${zh}级`)
    .replace(/学了(?=[半一二三四五六七八九十两几\d])/, `学了${zh}`)
    .replace(/练(?=[半一二三四五六七八九十两几\d])/, `练${zh}`);
}

/**
 * A Chinese statement that leaves its subject out and is the speaker's own (its opening says so:
 * a time, a habit, a verb of theirs; statement-parts) gets 「我」; one about someone else (他, 她,
 * 我们, 孩子) does not.
 */
const ZH_SOMEONE_ELSE = /^(?:他|她|它|我们|咱们|我家|孩子|儿子|女儿|老公|老婆|爸妈|父母)/;

function withChineseSubject(sentence: string, ctx: SpeakerContext): string {
  if (/我|咱|俺/.test(sentence) || ZH_SOMEONE_ELSE.test(sentence)) return sentence;
  const opening = ZH_DROPPED_SUBJECT_OPENING.exec(sentence);
  if (opening === null) return sentence;
  // 「最近土豆老是吐」: the subject after the time is someone the user named, not the user.
  const after = sentence.slice(opening[0].length);
  const named = ctx.zh.person?.name;
  if (/^(?:他|她|它)/.test(after) || (named !== undefined && after.startsWith(named))) return sentence;
  return `我${sentence}`;
}

/** The sentence as it should be stored: subject and topic kept. */
export function keepSubject(sentence: string, ctx: SpeakerContext, turn: number): string {
  return withTopic(withChineseSubject(withPerson(sentence, ctx, turn), ctx), ctx);
}

/** Updates what later sentences may lean on, from a sentence the user said (kept or not). */
export function learnContext(sentence: string, ctx: SpeakerContext, turn: number): void {
  const person = personIn(sentence);
  if (person.en) Object.assign(ctx.en, { person: person.en, personTurn: turn });
  if (person.zh) Object.assign(ctx.zh, { person: person.zh, personTurn: turn });
  const en = EN_TOPIC.exec(sentence);
  if (en) ctx.en.topic = en[1] ?? en[2];
  const zh = ZH_TOPIC.exec(sentence);
  if (zh) ctx.zh.topic = zh[1];
}
