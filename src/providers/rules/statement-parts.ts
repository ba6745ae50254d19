/**
 * @module providers/rules/statement-parts
 * What of a user's sentence is a statement: discourse markers and filler around it stripped ("Oh,
 * and …", "Big news — …", "… btw", 「对了，」「另外」「是的，」), the statement inside a question
 * ("Any vegan places near Alfama? I'm vegan" is two sentences already; 「另外我想考级，你觉得什么时候
 * 合适？」 keeps 「我想考级」), and the Chinese sentences whose subject is left out (「最近在准备马拉松」
 * 「预算三千以内」), which Chinese speakers say of themselves. Pure.
 */

/** Leading discourse markers and filler: they carry no fact and would be stored with it. */
const LEADING_FILLER =
  /^(?:(?:oh|ah|well|so|okay|ok|anyway|anyways|also|and|plus|btw|by the way|big news|guess what|fun fact|actually|honestly|haha|lol|hey|yeah|yes|yep|um|uh|hmm|fyi)\b[\s,!.:;—–-]*)+|^(?:(?:对了|另外|此外|还有|其实|不过|但是|可是|只是|而且|是的|是啊|对|嗯|哦|啊|好的|好|对啊|然后|所以|话说|顺便说一下|顺便说|跟你说个事|跟你说|告诉你|说实话|老实说|说真的|讲真|谢谢|要的|好主意|哈哈|没错|不是|不用了|还没有|请记住|记住|帮我记一下|帮我记住|记一下|我想问一下|问一下|想问一下)[啦呀啊哦嘛]?[，,。！!、\s]*)+/i;
/** Trailing filler words ("… btw", "… lol"), after a space or comma. */
const TRAILING_WORDS = ["btw", "by the way", "lol", "haha", "though"];

/**
 * The text without trailing filler ("… btw.", 「…哈哈」), read from the end by string operations:
 * an end-anchored pattern rescans a long run of spaces from each of them.
 */
function withoutTrailingFiller(text: string): string {
  let end = text.trimEnd().length;
  while (end > 0 && ".!。！".includes(text[end - 1])) end--;
  let rest = text.slice(0, end).trimEnd();
  const lower = rest.toLowerCase();
  const word = TRAILING_WORDS.find((w) => lower.endsWith(w) && /[\s,]/.test(lower[lower.length - w.length - 1] ?? ""));
  if (word) {
    let cut = rest.length - word.length;
    while (cut > 0 && /[\s,]/.test(rest[cut - 1])) cut--;
    return rest.slice(0, cut);
  }
  while (rest.endsWith("哈")) rest = rest.slice(0, -1);
  if (rest.length === end) return text;
  // 「戒了快半年了，哈哈。」: the comma before the laughter goes with it.
  while (rest.endsWith("，") || rest.endsWith(",")) rest = rest.slice(0, -1);
  return rest;
}

/** The sentence without discourse markers around it; unchanged when nothing would be left. */
export function withoutFiller(sentence: string): string {
  const trimmed = withoutTrailingFiller(sentence.replace(LEADING_FILLER, "")).trim();
  return trimmed.length >= 2 ? trimmed : sentence;
}

/** Where a question sentence's clauses part: a comma or semicolon, or a dash between spaces ("I finished it - want to see?"). */
const CLAUSE_BREAK = /[，,；;]| [-–—]+ /;
/** A clause that asks rather than states. */
const ASKS =
  /[?？]|[吗呢]$|什么|怎么|哪|谁|多少|几[个天次]|是否|有没有|能不能|可不可以|要不要|你觉得|你看|\b(?:what|how|which|who|where|when|why|any|can you|could you|do you|would you)\b/i;

/**
 * The statement a question sentence makes before it asks: its leading clauses that do not ask
 * ("另外我想考级，你觉得什么时候合适？" → "另外我想考级"), or null when every clause asks.
 */
export function statementBeforeQuestion(sentence: string): string | null {
  const clauses = sentence.split(CLAUSE_BREAK);
  if (clauses.length < 2) return null;
  const kept: string[] = [];
  for (const clause of clauses) {
    if (ASKS.test(clause)) break;
    kept.push(clause.trim());
  }
  const text = kept.filter((c) => c.length > 0).join(/\p{Script=Han}/u.test(sentence) ? "，" : ", ");
  return text.length > 0 ? text : null;
}

const HAN = /\p{Script=Han}/gu;
/**
 * A Chinese sentence that talks to the assistant or asks it for something. 请 asks, but not in
 * 请假 (leave), 请客 (a treat), 请了 (took, hired) or 申请/邀请/聘请: 「明天请了假」 is the speaker's.
 */
const ZH_TO_ASSISTANT = /你|您|(?<![申邀聘])请(?![假客了])|帮我|麻烦|推荐|建议|谢谢|多谢/;
/** Han characters a Chinese statement needs to say something: 「我不抽烟」 with its subject, 「家里有哑铃了」 without. */
const ZH_STATEMENT_MIN = { withSubject: 4, without: 5 } as const;
const ZH_SELF = /我/;

/**
 * An opinion or a reply, not a fact (「我觉得挺好」「我也觉得」「我试试」「我去看看」「我考虑一下」「我也不知道」
 * 「我还没想好」「我记下了」「我会试试的」).
 */
export const ZH_OPINION =
  /^我(?:也|还|就|先|再)?(?:觉得|认为|感觉|猜|知道|不知道|明白|懂了|同意|是这么想的|这么想|记下了|记住了|没想好|随便问问|会试试|(?:去|再|先)?(?:想想|试试|试一下|试一试|看看|考虑一下|考虑考虑))/;
/**
 * How a statement whose subject is left out opens when it is the speaker's own life: a person
 * (他, 她, 我们, 家里), or a time, habit or amount (最近, 后天下午, 每天, 平时, 差不多, 预算 …), or a verb of
 * theirs done for a length of time (「干了六年柜员」「学了半年」), or a thing of theirs given up
 * (「羽毛球不打了」「咖啡不喝了」). 「讲一个女孩…的故事」 opens with neither: it describes something else.
 */
export const ZH_DROPPED_SUBJECT_OPENING =
  /^(?:其实|改成|改为|换成|周[一二三四五六日末]|星期[一二三四五六日天]|他|她|我们|咱们|家里|我家|最近|近来|每天|每周|每月|每年|平时|平常|一般|经常|常常|已经|差不多|大概|大约|预算|主要|今年|明年|去年|下下周|下下个?月|下个?月|上个?月|下周|上周|这周|本周|这个月|这两天|这几天|前几天|月底|月初|年底|年初|周末|今天|明天|大后天|后天|今晚|明晚|上午|中午|下午|早上|晚上|现在|目前|以前|之前|刚|会去|不会|还没|没有|不太|不喜欢|比较|更喜欢|很喜欢|特别|在学|正在|打算|准备|计划|开始|孩子|儿子|女儿|老公|老婆|爸妈|父母|[\u4e00-\u9fff]{1,2}了(?:[一二三四五六七八九十两几半]|\d)|[\u4e00-\u9fff]{1,4}?不再?[打跑喝吃骑坐开游练去做玩学抽]了)/;

/**
 * What the speaker spends, owes or earns, whatever it is on (「猫粮一个月大概花三百块」「房租四千五」
 * 「车贷，每个月两千」): their budget.
 */
const ZH_SPENDS =
  /(?:花|预算|房租|房贷|车贷|月供|月薪|工资|学费|收入)[，,]?[^，。！？,]{0,4}?(?:[一二三四五六七八九十两几百千万]|\d)/;

/** The weather or the scene, not the speaker, is what a subject-less 「今天天气不错」 is about. */
const ZH_SCENE = /天气|气温|下雨|下雪|刮风|外面/;

const ZH_CLAUSE = /[，,；;]/;
/** A clause that asks the assistant to do something (「记得避开」「别忘了提醒我」). */
const ZH_REQUEST = /^(?:记得|别忘了|请(?![假客了])|麻烦|帮我|给我)/;

/**
 * A Chinese sentence without the clauses after its first that ask the assistant for something
 * (「我老公对海鲜过敏，记得避开」 → 「我老公对海鲜过敏」); unchanged when there are none.
 */
export function withoutRequestClauses(sentence: string): string {
  const clauses = sentence.split(ZH_CLAUSE);
  if (clauses.length < 2 || !/\p{Script=Han}/u.test(sentence)) return sentence;
  const kept = [clauses[0], ...clauses.slice(1).filter((c) => !ZH_REQUEST.test(c.trim()))];
  return kept.length === clauses.length ? sentence : kept.join("，");
}
const ZH_ADDRESSED = /你|您/;

/**
 * A Chinese sentence with its clauses aimed at the assistant left out, when others remain
 * (「我听你的建议，开始每天早睡了」 → 「开始每天早睡了」); null when nothing would be left.
 */
export function withoutAddressedClauses(sentence: string): string | null {
  if (!/\p{Script=Han}/u.test(sentence) || !ZH_ADDRESSED.test(sentence)) return null;
  const kept = sentence
    .split(ZH_CLAUSE)
    .map((c) => c.trim())
    .filter((c) => c.length > 0 && !ZH_ADDRESSED.test(c));
  return kept.length > 0 ? kept.join("，") : null;
}

/** A Chinese declarative sentence of the user's, subject left out or not, that is not aimed at the assistant. */
export function isChineseStatement(sentence: string): boolean {
  const self = ZH_SELF.test(sentence);
  const min = self ? ZH_STATEMENT_MIN.withSubject : ZH_STATEMENT_MIN.without;
  if ((sentence.match(HAN)?.length ?? 0) < min || ZH_TO_ASSISTANT.test(sentence) || ZH_OPINION.test(sentence))
    return false;
  if (self) return true;
  if (ZH_SCENE.test(sentence)) return false;
  return ZH_DROPPED_SUBJECT_OPENING.test(sentence) || ZH_SPENDS.test(sentence);
}
