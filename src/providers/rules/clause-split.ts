/**
 * @module providers/rules/clause-split
 * An English sentence that states two facts of the speaker's becomes two, so a later change
 * supersedes only the one it contradicts: "I don't drink coffee anymore, switched to matcha" →
 * "I don't drink coffee anymore" + "I switched to matcha"; "I live in Lisbon and teach yoga on
 * weekends" → "I live in Lisbon" + "I teach yoga on weekends"; "…, and I …" / "…, but now I …"
 * likewise. A sentence is only cut where the second part is a clause of the speaker's own (its
 * own "I", or a verb whose subject was left out) and both parts keep three words; anything else
 * stays whole. A sentence whose "I" is dropped at its start ("Switched to matcha last week") gets
 * it back. Pure and linear: one pass of flat alternations.
 */

const OWN_VERBS = [
  "switched",
  "moved",
  "started",
  "quit",
  "stopped",
  "changed",
  "joined",
  "bought",
  "adopted",
  "took",
  "got",
  "went",
  "visited",
  "finished",
  "signed",
  "teach",
  "live",
  "love",
  "prefer",
  "hate",
  "enjoy",
  "speak",
  "study",
  "practice",
  "practise",
  "volunteer",
  "write",
  "paint",
];
const ADVERB = "(?:(?:also|then|now|just|recently|finally|still) )?";

/**
 * Where a second clause of the speaker's starts: after a comma or "and"/"but", its own I or a verb
 * of theirs. Read on the sentence with single spaces, so no run of spaces is rescanned.
 */
const JOINT = new RegExp(
  String.raw`(?:, (?:and |but |so )?| (?:and|but) )(?=${ADVERB}(?:(?:i|i've|i'm) |(?:${OWN_VERBS.join("|")})\b))`,
  "gi",
);
const STARTS_WITH_I = /^(?:i|i'm|i've|i'd|i'll)\b/i;
const OWN_SUBJECT = new RegExp(String.raw`^${ADVERB}(?:i|i've|i'm)\s`, "i");
/** A sentence whose "I" was left out at its start ("Switched to matcha", "Just moved to Porto"). */
const DROPPED_I = new RegExp(String.raw`^${ADVERB}(?:${OWN_VERBS.slice(0, 15).join("|")})\b`, "i");
const MIN_WORDS = 3;
const HAN = /\p{Script=Han}/u;

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;
/** The text without the punctuation and spaces it ends with, read from the end (an end-anchored class rescans). */
function trimEnd(text: string, marks: string): string {
  let end = text.length;
  while (end > 0 && (marks.includes(text[end - 1]) || /\s/.test(text[end - 1]))) end--;
  return text.slice(0, end);
}
const trimJoin = (text: string) => trimEnd(text, ",;:—–-").trim();

/** "Switched to matcha" → "I switched to matcha"; other sentences unchanged. */
export function withDroppedI(sentence: string): string {
  if (!DROPPED_I.test(sentence)) return sentence;
  return `I ${sentence[0].toLowerCase()}${sentence.slice(1)}`;
}

/** The sentence's facts of the speaker's, in order; the sentence itself when it is one. */
export function splitCompound(sentence: string): string[] {
  if (!STARTS_WITH_I.test(sentence) || HAN.test(sentence)) return [sentence];
  const original = sentence;
  sentence = sentence.replace(/\s+/g, " ");
  const parts: string[] = [];
  let from = 0;
  for (const m of sentence.matchAll(JOINT)) {
    const head = trimJoin(sentence.slice(from, m.index));
    const restStart = m.index + m[0].length;
    if (words(head) < MIN_WORDS || words(sentence.slice(restStart)) < MIN_WORDS) continue;
    parts.push(head);
    from = restStart;
  }
  if (parts.length === 0) return [original];
  parts.push(sentence.slice(from).trim());
  return parts.map((p, i) => (i === 0 || OWN_SUBJECT.test(p) ? p : `I ${p}`));
}

const ZH_CLAUSE_BREAK = /[，,；;]/;
/** A clause naming who it is about: 我, 他, 她, 我们, 我妈妈, 我男朋友, or what someone said of the speaker (「医生说我胃不好」). */
const ZH_SUBJECT =
  /^(?:我们|咱们|我(?:的)?(?:爸爸|妈妈|父亲|母亲|哥哥|姐姐|弟弟|妹妹|[表堂][哥姐弟妹]|老公|老婆|丈夫|妻子|太太|对象|男朋友|女朋友|儿子|女儿|孩子|室友|同事|朋友|闺蜜|导师|老板|婆婆|公公)|我|他们|她们|他|她|[\u4e00-\u9fff]{1,3}(?:说|让|建议)我)/;
/** A time a clause may open with before its subject. */
const ZH_TIME_FIRST =
  /^(?:今天|明天|大后天|后天|昨天|前天|今晚|明晚|这两天|这几天|下下周|上周|下周|这周|周末|下个?月|上个?月|明年|去年|今年|最近|后来|之前|以前|现在)/;
/** Connectives a clause may open with; 「所以」 turns back to the speaker. */
const ZH_CONNECTIVE = /^(?:所以|因此|但是|但|不过|可是|而且|并且|然后)/;
/** A clause that goes on with the same subject: 「也不吃香菜」「经常值夜班」「改喝抹茶」「明年六月毕业」「明天请了假」. */
const ZH_SAME_SUBJECT =
  /^(?:也|还|更(?:喜欢|想|爱)|最(?:喜欢|爱)|不(?:喜欢|吃|喝|会|想|要|能|抽|爱|再)|没有|经常|常常|一般|平时|每天|每周|现在|以前|之前|已经|正在|在|会|想|要|打算|准备|喜欢|讨厌|改(?:喝|吃|用|成|去|做|学)|换成|开始|明年|今年|下个?月|下周|明天|后天|这两天|这几天)/;
/**
 * Only the speaker is carried on to a clause without a subject: after someone else's clause the
 * subject is ambiguous (「她不知道我在学，想给她一个惊喜」 is the speaker who wants), so it stays whole.
 */
const ZH_CARRIED = /^(?:我|我们)$/;
/** A clause that ends by naming someone or something (「…叫土豆」), and the speaker's own name (「我叫林晓」). */
const ZH_NAMES_SOMEONE = /叫[\u4e00-\u9fff]{1,3}$/;
const ZH_OWN_NAME = /^我(?:的名字)?叫/;
const ZH_HAN = /\p{Script=Han}/gu;
/** A fact of its own needs this many Han characters, else the clause stays with its neighbour. */
const ZH_CLAUSE_MIN = 4;

const hanCount = (text: string) => text.match(ZH_HAN)?.length ?? 0;
/**
 * A short clause without its subject that ends in 了 (「不想再碰了」「现在完全忘了」「现在不喝了」) leans on
 * the clause before for what it is about, so it stays with it: this many Han characters at most.
 */
const ZH_LEANING_MAX = 6;

interface ZhClause {
  text: string;
  subject: string | null;
}

/** One clause as a fact of its own, or null when it goes on the clause before it. */
function zhClause(raw: string, previous: ZhClause | undefined): ZhClause | null {
  const connective = ZH_CONNECTIVE.exec(raw);
  const text = connective ? raw.slice(connective[0].length) : raw;
  // 「大后天我要加班」: a time said before the subject leaves the clause its own.
  const subject = ZH_SUBJECT.exec(text.slice(ZH_TIME_FIRST.exec(text)?.[0].length ?? 0))?.[0] ?? null;
  if (subject !== null) return hanCount(text) >= ZH_CLAUSE_MIN ? { text, subject } : null;
  if (previous === undefined || !ZH_SAME_SUBJECT.test(text) || hanCount(text) < ZH_CLAUSE_MIN - 1) return null;
  // 「我家有一只猫叫土豆，今年四岁」: the clause after someone named is about them, so it stays with them.
  if (ZH_NAMES_SOMEONE.test(previous.text) && !ZH_OWN_NAME.test(previous.text)) return null;
  const carried = connective && /^(?:所以|因此)/.test(connective[0]) ? "我" : (previous.subject ?? "我");
  if (!ZH_CARRIED.test(carried)) return null;
  if (text.endsWith("了") && hanCount(text) <= ZH_LEANING_MAX) return null;
  return { text: `${carried}${text}`, subject: carried };
}

/**
 * A Chinese sentence's facts, one per clause that names its subject or goes on with the one
 * before (「我不吃辣，也不吃香菜」 → 「我不吃辣」「我也不吃香菜」); a clause that does neither stays
 * with the clause before it (「不过我不再喝奶茶了，太甜」 stays whole). Unsplit when nothing splits.
 */
export function splitChineseClauses(sentence: string): string[] {
  if (!/\p{Script=Han}/u.test(sentence)) return [sentence];
  const raws = trimEnd(sentence, "。！!.~～")
    .split(ZH_CLAUSE_BREAK)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
  const out: ZhClause[] = [];
  for (const raw of raws) {
    const previous = out[out.length - 1];
    // A first clause that says 我 after a time (「上周三我和小周吃了火锅」) is the speaker's.
    const first = () => ({ text: raw, subject: ZH_SUBJECT.exec(raw)?.[0] ?? (/我/.test(raw) ? "我" : null) });
    const own = previous === undefined ? first() : zhClause(raw, previous);
    if (own !== null && previous !== undefined && previous.subject === null && out.length === 1) {
      // A first clause that names nobody (「挺开心的」) opens the next one rather than stand alone.
      out[0] = { text: `${previous.text}，${raw}`, subject: own.subject };
    } else if (own !== null) out.push(own);
    else previous.text += `，${raw}`;
  }
  return out.length > 1 && out.every((c) => hanCount(c.text) >= ZH_CLAUSE_MIN) ? out.map((c) => c.text) : [sentence];
}
