/**
 * @module memory/text/stop-words
 * Stop lists for English words and Chinese characters/words. Shared by documents and queries so
 * both sides of a BM25 or hashed-vector comparison drop the same function words.
 */

/**
 * English function words, compared after lower-casing and apostrophe removal ("don't" -> "dont").
 * Question words and auxiliaries are in so "which language do I prefer?" keeps only content.
 * Negations (not, no, never, dont, ...) stay out on purpose: "likes coffee" and "does not like
 * coffee" must not look identical to duplicate and conflict checks.
 */
const ENGLISH = `
a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each else etc ever few for from
further had has have having he her here hers herself him himself his how i if im in into is it its
itself ive just let lets may me might more most must my myself of off on once only or other ought
our ours ourselves out over own per please same shall she should so some such than that thats the
their theirs them themselves then there these they this those through thus to too under until up
upon us very via was we were what whats when where which while who whom whose why will with would
yet you your yours yourself yourselves youre youve ill id hes shes theyre weve
`;

export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(ENGLISH.split(/\s+/).filter(Boolean));

/**
 * Chinese characters that are (almost always) grammatical glue: particles, pronouns, the copula,
 * question fragments. A character bigram touching one of these is dropped (see cjk.ts); the list
 * leaves out characters that often start content words (有 in 有趣, 会 in 会议, 地 in 地址, 个 in 个人,
 * 对 in 对话, 过 in 过敏, 不 and 没 because negation matters).
 */
const CHINESE_CHARS = "的了吗呢吧啊呀嘛么哦呗啦是我你您他她它们这那哪什怎谁在和与及也都就又很把被着其";

export const CHINESE_STOP_CHARS: ReadonlySet<string> = new Set(Array.from(CHINESE_CHARS));

/**
 * Multi-character function words whose characters are not all stop characters on their own
 * (为什么 has 为, 哪些 has 些). Inside a CJK run they are matched as whole words and masked out.
 */
export const CHINESE_STOP_WORDS: readonly string[] = [
  "为什么",
  "怎么样",
  "是不是",
  "有没有",
  "是否",
  "什么",
  "怎么",
  "怎样",
  "哪些",
  "哪个",
  "哪里",
  "哪儿",
  "一些",
  "一下",
  "一个",
  "这个",
  "那个",
  "这些",
  "那些",
  "这样",
  "那样",
  "还是",
  "但是",
  "可是",
  "因为",
  "所以",
  "如果",
  "或者",
  "以及",
  "而且",
  "还有",
  "比如",
  "就是",
  "只是",
  "已经",
  "自己",
];

/**
 * Content words that contain a stop character (吉他 has 他, 成都 has 都, 了解 has 了). Inside a CJK
 * run they win over the stop lists, so "guitar", "Chengdu" and "understand" stay searchable.
 */
export const CHINESE_KEEP_WORDS: readonly string[] = [
  "吉他",
  "目的",
  "了解",
  "成都",
  "首都",
  "京都",
  "都市",
  "现在",
  "存在",
  "在线",
  "和平",
  "温和",
  "和谐",
  "成就",
  "被子",
  "着急",
  "着迷",
  "穿着",
  "及时",
  "自我",
  "哪吒",
];
