/**
 * @module providers/rules/others-and-dates
 * Two kinds of sentence a person says in a conversation that are worth keeping though they are not
 * about the speaker: what a person they know does ("Raj teaches chemistry at a secondary school",
 * 「陈晨在一所中学教化学」 — the second hop of "what does my boss do?") and a thing of theirs on a
 * day ("The car goes in for its service tomorrow", 「车子月底要去做保养」). A person is a capitalised
 * name opening the sentence before a verb of what one does or is, or a short Chinese name before
 * 在/是/自己 with a word of work, or before something begun or being learnt (「朵朵上周开始学钢琴了」); a day is whatever the date reader (memory/text/relative-dates.ts,
 * chrono-node) fixes. Words aimed at the listener (you, 你) keep neither. Pure; every pattern is a
 * flat alternation or a bounded class (linear).
 */
import { namedDay } from "../../memory/text/relative-dates";

/** "Raj teaches…", "Anna is a vet…", "Kofi does payroll…": a name, then what they do or are. */
const EN_PERSON_DOES =
  /^(?!(?:The|This|That|These|Those|There|It|He|She|They|We|You|My|Our|Your|His|Her|Their|What|When|Where|Who|Why|How|Today|Tomorrow|Yesterday)\b)[A-Z][a-z]{1,20}(?: [A-Z][a-z]{1,20})? (?:is an? |works |teaches |runs |does |owns |flies |drives |studies |manages |designs |writes |plays |became |has been an? |just started |started |has (?:football|piano|swimming|ballet|music|dance|tennis|violin|guitar|art)\b|goes to )/;

/** A Chinese name (two or three characters, or 小/老/阿 and one) before 在/是/自己, not a pronoun or a thing. */
const ZH_PERSON =
  /^(?![我你他她它这那今明昨前后车家钱])(?:[小老阿][\u4e00-\u9fff]|[\u4e00-\u9fff]{2,3})(?:在|是|自己|当|做|教)/;
/**
 * A Chinese name, then (after a time word) something they began or are learning: 「朵朵上周开始学钢琴了」
 * 「小芳最近在学日语」 — the daughter's piano is asked of later, whoever she is to the speaker.
 */
const ZH_PERSON_BEGINS =
  /^(?![我你他她它这那今明昨前后车家钱天])(?:[小老阿][\u4e00-\u9fff]|[\u4e00-\u9fff]{2,3})(?:上周|上个月|这周|这个月|最近|今年|前几天|下周|下个月)?(?:开始|在学|学会了|考上了|报了|进了)/;
/** …with a word of what they do for a living. */
const ZH_WORK =
  /做|当|教|开了|上班|工作|医生|老师|律师|经理|工程师|护士|美术|地勤|厨师|司机|会计|设计|程序员|销售|记者|编辑|警察|店|公司/;

/** Words aimed at the listener: "see you tomorrow", 「你明天有空吗」. */
const TO_LISTENER = /\b(?:you|your|you'll|you're)\b|你/i;

/** The sentence says what a person the speaker knows does or is. */
export function aboutSomeoneKnown(sentence: string): boolean {
  const text = sentence.trim();
  if (TO_LISTENER.test(text)) return false;
  return EN_PERSON_DOES.test(text) || (ZH_PERSON.test(text) && ZH_WORK.test(text)) || ZH_PERSON_BEGINS.test(text);
}

/**
 * The sentence puts something on a day other than today (read against now, in UTC: only whether it
 * names one matters). "Today" alone is the talk's own moment (「今天天气不错」), not a thing's date.
 */
export function namesADay(sentence: string): boolean {
  if (TO_LISTENER.test(sentence)) return false;
  const now = Date.now();
  const named = namedDay(sentence, { at: now, timeZone: "UTC" });
  return named !== null && named.day !== new Date(now).toISOString().slice(0, 10);
}
