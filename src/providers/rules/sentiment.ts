/**
 * @module providers/rules/sentiment
 * Reads "who feels how about what" out of each clause: 「我现在讨厌英雄联盟了」 → subject self,
 * polarity −1, object {英雄, 雄联, 联盟}. The conflict rules compare two such stances; a flipped
 * polarity about the same object by the same subject means the newer memory replaces the older.
 */
import { contentTokens, splitClauses } from "./text";

export interface Stance {
  /** "self" for the user (I, 我, or no subject at all), otherwise the subject's own words. */
  subject: string;
  polarity: 1 | -1;
  object: Set<string>;
}

// Negative cues run first: "don't like" and 不喜欢 contain the positive cue.
/** What a stance pattern needs: RegExp, or a function where one regex would not run in linear time. */
type Matcher = Pick<RegExp, "exec">;

const DONT = /\b(?:don't|do not|doesn't|does not)\b/;
const ANYMORE = /\b(?:anymore|any more)\b/;

/**
 * "don't … anymore": the negation, when "anymore" follows it. Two linear scans instead of a lookahead
 * over the rest of the clause at every "don't" (quadratic on "don't don't don't …").
 */
function dontAnymore(clause: string): RegExpExecArray | null {
  const m = DONT.exec(clause);
  return m && ANYMORE.test(clause.slice(m.index + m[0].length)) ? m : null;
}

const NEGATIVE: Matcher[] = [
  /\bused to\s+(?:really\s+)?(?:like|love|enjoy|adore|be into)\b/,
  /\b(?:no longer|don't|do not|doesn't|does not|didn't|did not|never)\s+(?:really\s+|even\s+|particularly\s+)?(?:like|love|enjoy|care for|care about)\b/,
  /\b(?:can't|cannot|can not|couldn't)\s+stand\b/,
  /\b(?:hate|hates|hated|dislike|dislikes|disliked|detest|detests|loathe|loathes|despise|despises)\b/,
  /\b(?:am|'m|is|are)\s+(?:not|no longer)\s+(?:really\s+)?(?:into|a fan of|fond of)\b/,
  /\b(?:am|'m)\s+(?:sick|tired|done)\s+(?:of|with)\b|\bgot bored (?:of|with)\b/,
  /\b(?:stopped|quit|gave up(?: on)?)\b/,
  /\bno longer\b/,
  { exec: dontAnymore },
  /不再喜欢|不喜欢|不太喜欢|不爱|讨厌|厌恶|反感|受不了|烦透|(?<![麻厌])烦|厌倦|腻了|戒了|戒掉了?|再也不|不再|没兴趣|不感兴趣|以前(?:很|挺|特别|非常)?(?:喜欢|爱)/,
];

const POSITIVE: RegExp[] = [
  /(?<!\b(?:feel|feels|felt|look|looks|looked|sound|sounds|seem|seems|something|anything|just|more|is|was|are|were|be|would|'d)\s)\b(?:like|likes|liked|love|loves|loved|enjoy|enjoys|enjoyed|prefer|prefers|preferred|adore|adores)\b/,
  /\b(?:am|'m)\s+(?:really\s+|so\s+|totally\s+)?(?:into|a (?:big |huge )?fan of|fond of|crazy about|passionate about)\b/,
  /喜欢|热爱|喜爱|(?<!可)爱(?!人|好)|偏爱|钟爱|着迷|迷上了?|感兴趣/,
];

/** Words and phrases that say nothing about the object: time, degree, particles. */
const FILLER_WORDS = new Set([
  "a",
  "an",
  "the",
  "to",
  "of",
  "and",
  "or",
  "in",
  "on",
  "at",
  "for",
  "with",
  "it",
  "this",
  "that",
  "them",
  "those",
  "these",
  "i",
  "i'm",
  "im",
  "i've",
  "i'd",
  "me",
  "my",
  "myself",
  "is",
  "am",
  "are",
  "was",
  "were",
  "be",
  "been",
  "do",
  "does",
  "did",
  "so",
  "very",
  "really",
  "much",
  "now",
  "anymore",
  "any",
  "more",
  "still",
  "also",
  "just",
  "actually",
  "honestly",
  "lot",
  "lots",
  "too",
  "days",
  "nowadays",
  "lately",
  "totally",
  "kind",
  "sort",
  "quite",
  "pretty",
  "all",
  "some",
  "always",
  "ever",
  "even",
  "truly",
  "definitely",
  "personally",
  "absolutely",
  "seriously",
  "well",
  "oh",
  "yeah",
  "though",
]);

const FILLER_PHRASES = [
  "现在",
  "真的",
  "其实",
  "一直",
  "已经",
  "最近",
  "越来越",
  "特别",
  "非常",
  "有点",
  "开始",
  "依然",
  "仍然",
  "还是",
  "总是",
  "一点",
  "根本",
  "完全",
  "从来",
  "以前",
  "之前",
  "如今",
  "目前",
  "说实话",
  "老实说",
  "确实",
  "本来",
  "了",
  "的",
  "也",
  "还",
  "很",
  "都",
  "就",
  "又",
  "再",
  "啦",
  "呀",
  "吧",
  "啊",
  "哦",
  "呢",
  "超",
  "太",
  "挺",
];

const SELF_EN = new Set(["i", "i'm", "im", "i've", "i'd", "me"]);

/** Subject text before the cue → "self" when it ends with I/我 or is only filler, else its tokens. */
function subjectKey(before: string): string {
  let rest = before;
  for (const phrase of FILLER_PHRASES) rest = rest.split(phrase).join(" ");
  const words = rest.match(/[\p{Script=Latin}\d']+|[\u3400-\u9fff]+/gu) ?? [];
  const kept = words.filter((w) => SELF_EN.has(w) || !FILLER_WORDS.has(w));
  if (kept.length === 0) return "self";
  const last = kept[kept.length - 1];
  if (SELF_EN.has(last) || (last.endsWith("我") && !last.endsWith("我们"))) return "self";
  return kept.join(" ");
}

function firstMatch(clause: string, patterns: Matcher[]): RegExpExecArray | null {
  for (const p of patterns) {
    const m = p.exec(clause);
    if (m) return m;
  }
  return null;
}

/** The stance of one normalised clause, or null when it expresses no like/dislike. */
export function parseStance(clause: string): Stance | null {
  const negative = firstMatch(clause, NEGATIVE);
  const m = negative ?? firstMatch(clause, POSITIVE);
  if (!m) return null;
  return {
    subject: subjectKey(clause.slice(0, m.index)),
    polarity: negative ? -1 : 1,
    object: contentTokens(clause.slice(m.index + m[0].length), FILLER_WORDS, FILLER_PHRASES),
  };
}

/** Every stance in a text, one per clause that has one. */
export function parseStances(text: string): Stance[] {
  return splitClauses(text)
    .map(parseStance)
    .filter((s): s is Stance => s !== null);
}
