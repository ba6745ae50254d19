/**
 * @module memory/write/value-filter
 * Rejects text with no lasting value before it costs an embedding: acknowledgements, greetings,
 * laughter, bare punctuation or emoji, and text too short to mean anything. The test is "is this
 * text made only of filler?", so any real content word ("I'm vegan", 「我是素食者」) keeps it.
 */

export type ValueVerdict = { keep: true } | { keep: false; reason: string };

/** Rejection reasons, stable strings that callers and docs quote. */
export const VALUE_REASONS = {
  empty: "empty",
  noText: "no-text",
  tooShort: "too-short",
  filler: "filler",
} as const;

const MIN_MEANINGFUL_CHARS = 2;

/** English filler phrases; multi-word entries are matched as word sequences. */
const EN_FILLER = [
  "ok",
  "okay",
  "okey",
  "okie",
  "k",
  "kk",
  "sure",
  "sure thing",
  "of course",
  "yes",
  "yeah",
  "yep",
  "yup",
  "ya",
  "no",
  "nope",
  "nah",
  "thanks",
  "thank you",
  "thank u",
  "thx",
  "ty",
  "tysm",
  "tyvm",
  "cheers",
  "many thanks",
  "thanks a lot",
  "got it",
  "gotcha",
  "understood",
  "noted",
  "i see",
  "makes sense",
  "cool",
  "nice",
  "great",
  "awesome",
  "perfect",
  "alright",
  "all right",
  "fine",
  "good",
  "lol",
  "lmao",
  "rofl",
  "haha",
  "hehe",
  "hi",
  "hello",
  "hey",
  "heya",
  "yo",
  "howdy",
  "good morning",
  "good afternoon",
  "good evening",
  "good night",
  "gn",
  "morning",
  "evening",
  "bye",
  "goodbye",
  "bye bye",
  "see you",
  "see ya",
  "later",
  "cya",
  "ttyl",
  "take care",
  "you're welcome",
  "youre welcome",
  "welcome",
  "np",
  "no problem",
  "no worries",
  "sounds good",
  "will do",
  "right",
  "hmm",
  "hm",
  "um",
  "uh",
  "oh",
  "ah",
  "wow",
  "please",
  "pls",
  "again",
  "so",
  "very",
  "much",
  "a lot",
  "too",
  "there",
  "everyone",
  "all",
  "guys",
  "man",
  "mate",
  "bro",
  "dude",
  "buddy",
  "then",
  "for now",
  "for the help",
  "for your help",
  "for helping",
  "for that",
  "for this",
  "for everything",
  "i'm fine",
  "i'm good",
  "i'm ok",
  "i'm okay",
  "me too",
  "same here",
  "you too",
  "i agree",
  "agreed",
  "i know",
  "not bad",
  "how are you",
  "and you",
];

/** Chinese filler; matched character by character so 「好的谢谢」 is 好的 + 谢谢. */
const ZH_FILLER = [
  "好的",
  "好",
  "好吧",
  "好滴",
  "好嘞",
  "好哒",
  "行",
  "行吧",
  "可以",
  "没问题",
  "嗯",
  "嗯嗯",
  "哦",
  "噢",
  "喔",
  "啊",
  "哈",
  "呵",
  "嘿",
  "嘻",
  "谢谢",
  "多谢",
  "感谢",
  "谢啦",
  "谢了",
  "谢谢你",
  "谢谢您",
  "明白",
  "明白了",
  "知道了",
  "了解",
  "懂了",
  "收到",
  "你好",
  "您好",
  "大家好",
  "嗨",
  "早",
  "早上好",
  "早安",
  "午安",
  "晚上好",
  "晚安",
  "再见",
  "拜拜",
  "回头见",
  "对",
  "对的",
  "是的",
  "没事",
  "不客气",
  "太好了",
  "棒",
  "赞",
  "辛苦了",
  "了",
  "啦",
  "呀",
  "吧",
  "哇",
  "的",
  "嘛",
  "哟",
  "喽",
  "咯",
  "非常",
  "十分",
  "真",
  "很",
  "你",
  "您",
  "帮助",
  "帮忙",
  "我明白",
  "我知道",
  "我懂",
  "懂",
  "不错",
  "厉害",
  "原来如此",
  "这样啊",
  "也是",
  "同意",
  "我同意",
];

const LAUGHTER = /^(?:(?:ha|he|hi|ho|ja|je|xa|ah){2,}h?|l+o+l+|lmf?ao+|rofl+|xd+|h+m+|u+m+|u+h+)$/;

function normalise(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/[’`]/g, "'");
}

/** Latin words become tokens, every other letter (CJK) is its own token; punctuation and emoji separate. */
function tokens(text: string): string[] {
  return normalise(text).match(/[\p{Script=Latin}\p{Nd}']+|[\p{L}\p{N}]/gu) ?? [];
}

/** The token with every run of one repeated UTF-16 unit cut to `keep` units (a loop, not a backreference). */
function collapseRuns(token: string, keep: number): string {
  let out = "";
  let run = 0;
  for (let i = 0; i < token.length; i++) {
    run = i > 0 && token[i] === token[i - 1] ? run + 1 : 1;
    if (run <= keep) out += token[i];
  }
  return out;
}

/** "okkk" → "ok", "goood" → "good": elongation does not make filler meaningful, so try both collapses. */
function spellings(token: string): string[] {
  return [token, collapseRuns(token, 1), collapseRuns(token, 2)];
}

const PHRASES: string[][] = [...EN_FILLER.map((p) => tokens(p)), ...ZH_FILLER.map((p) => [...p])];
const SINGLE_WORDS = new Set(PHRASES.filter((p) => p.length === 1).map((p) => p[0]));

/** Filler is short by nature; past this many tokens the text is kept without running the search. */
const MAX_FILLER_TOKENS = 40;

function isFillerToken(token: string): boolean {
  return (
    LAUGHTER.test(token) || (token.length > 1 && collapseRuns(token, 1) === token[0] && SINGLE_WORDS.has(token[0]))
  );
}

/** True when the token list can be covered entirely by filler phrases (dynamic programming). */
function allFiller(words: string[]): boolean {
  if (words.length > MAX_FILLER_TOKENS) return false;
  const forms = words.map(spellings);
  const reach: boolean[] = [true];
  for (let i = 0; i < words.length; i++) {
    if (!reach[i]) continue;
    if (isFillerToken(words[i])) reach[i + 1] = true;
    for (const phrase of PHRASES) {
      if (phrase.every((w, k) => i + k < words.length && forms[i + k].includes(w))) reach[i + phrase.length] = true;
    }
  }
  return reach[words.length] === true;
}

function meaningfulChars(text: string): number {
  return (text.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

/** Decides whether `text` is worth remembering. Reasons: empty, no-text, too-short, filler. */
export function assessValue(text: string): ValueVerdict {
  const trimmed = text.trim();
  if (trimmed.length === 0) return { keep: false, reason: VALUE_REASONS.empty };
  const chars = meaningfulChars(trimmed);
  if (chars === 0) return { keep: false, reason: VALUE_REASONS.noText };
  // Filler first: 「嗯」 and 「好」 are one character, but "filler" is the truer reason.
  if (allFiller(tokens(trimmed))) return { keep: false, reason: VALUE_REASONS.filler };
  if (chars < MIN_MEANINGFUL_CHARS) return { keep: false, reason: VALUE_REASONS.tooShort };
  return { keep: true };
}
