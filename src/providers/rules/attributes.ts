/**
 * @module providers/rules/attributes
 * Reads single-valued facts about the user — name, birthday, email, phone, where they live, where
 * they work, their job, each "favourite X" — as attribute/value pairs, in English and Chinese.
 * A person has one of each at a time, so a new value replaces the old one; that is the whole
 * point of extracting them. "ended" marks statements that a value stopped being true
 * ("I no longer live in Paris", 「我已经不在腾讯工作了」).
 */
import {
  beforeWords,
  findLabelledValue,
  type LabelledValue,
  labelledValue,
  stickyValue,
  toClauseEnd,
  ZH_CLAUSE_END,
  ZH_EMPLOYER_MAX,
  ZH_END_PARTICLES,
  ZH_VALUE_MAX,
} from "./scanned-values";
import { normalise, splitSentences } from "./text";

export interface AttributeFact {
  attribute: string;
  value: string;
  ended: boolean;
}

export type AttributePattern = {
  /**
   * Fixed attribute, or "favorite" / "pet" when group 1 names the favourite kind or the animal and
   * group 2 is the value.
   */
  attribute: string;
  ended?: boolean;
  /** The sentence must also say this (a second, plain pattern rather than a lookahead). */
  when?: RegExp;
  /** A fixed value (diet: "vegetarian" from 「我吃素」); else the value is the pattern's last group. */
  value?: string;
  /** Read on the sentence as written, capitals kept: a name is told from a word by its capital ("my girlfriend Elin"). */
  cased?: boolean;
} & (
  | { pattern: RegExp }
  /** A label, then a value read by a scan (scanned-values.ts): the Chinese values recheck could not settle. */
  | { scanned: LabelledValue }
);

// A value runs to the end of its clause: punctuation, or a conjunction that starts a new statement.
// Words and the spaces between them, a run of spaces taken only when a word that is not such a
// conjunction follows: the value ends where the lazy `([^,;.!?]+?)(?=\s*(?:[,;.!?]|\s(?:and|…)\s|$))`
// ended, without its lookahead re-reading each run of spaces from every space in it (polynomial by
// recheck's fuzz checker).
const V = String.raw`([^,;.!?\s]+(?:\s+(?!(?:and|but|so|because|since|while|though|although|which|who)\s)[^,;.!?\s]+)*)`;
const ZH_VALUE_CHAR = `[^${ZH_CLAUSE_END}\\s]`;
const ZH_END = `(?=(?:${[...ZH_END_PARTICLES].join("|")})?(?:[${ZH_CLAUSE_END}\\s]|$))`;
// The favourite and job patterns keep the value in the regex (recheck proves them safe); the others
// read it with scanned-values.ts's toClauseEnd, the same rule.
const V_ZH = `(${ZH_VALUE_CHAR}{1,${ZH_VALUE_MAX}}?)${ZH_END}`;
// Local part and domain bounded (64 and 255, the address format's own limits): unbounded, every
// 「我的邮箱是」 in a long run without "@" rescanned the rest of it. A trailing "." or 。 ends a sentence.
const V_EMAIL = String.raw`((?:[^\s,;，；.。]|[.。](?!\s|$))(?:[^\s,;，；@.。]|[.。](?!\s|$)){0,63}@[^\s,;，；](?:[^\s,;，；.。]|[.。](?!\s|$)){0,254})(?![^\s,;，；.。]|[.。](?!\s|$))`;
const EMAIL_AT = stickyValue(new RegExp(V_EMAIL, "y"));
const V_PHONE = String.raw`(\+?\d[\d\s-]{5,}\d)`;
const I_NOW = String.raw`\bi\s+(?:now\s+|currently\s+|still\s+|actually\s+)?`;
const I_AM = String.raw`\bi(?:'m|\s+am)\s+(?:now\s+|currently\s+)?`;
// At most three time words: "(?:刚|刚刚)*" could split 刚刚… in exponentially many ways.
const ZH_NOW =
  "(?:现在|目前|已经|刚刚|刚|最近|一直|还|上个月|这个月|上周|这周|今天|昨天|前几天|今年|去年|下周[一二三四五六日]?|下个月|明天|后天){0,3}";

/** A Chinese value that runs to the next clause mark, at most 20 characters, before a fixed ending. */
const ZH_NAME = "([^，。！？,;；!?\\s]{1,20}?)";
const EN_DIETS = "vegan|vegetarian|pescatarian|pescetarian";
const PARTNER_EN = "partner|girlfriend|boyfriend|wife|husband|fiancee|fiance|spouse";
const PARTNER_ZH = "男朋友|女朋友|男友|女友|对象|老公|老婆|丈夫|妻子|爱人|未婚夫|未婚妻";
/** One given name, as normalised text has it (lower case): the value of "<name> is my partner". */
const EN_FIRST_NAME = String.raw`([a-z][a-z'’-]{0,30})`;
const PETS_EN = "dog|cat|puppy|kitten|rabbit|bunny|hamster|parrot|horse";
/** What a Chinese workplace is called: 「在一家医院做行政」 names an employer, 「在家做饭」 does not. */
const ZH_WORKPLACES = "公司|医院|学校|银行|外企|企业|工厂|单位|律所|大学|集团|事务所|研究所|酒店|餐厅|机构|诊所|幼儿园";

/**
 * What a life changes beyond home and work: a new job, school, partner, diet, car or pet, each a
 * single value a newer statement replaces (docs/write-rules.md §4). Partners and pets are read from
 * a name given as a name ("is called", 「叫」), never from "my wife is …", which says anything.
 */
const LIFE_PATTERNS: readonly AttributePattern[] = [
  {
    attribute: "employer",
    pattern: new RegExp(
      String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:started|began|got|landed|accepted|took)\s+(?:a\s+|my\s+|the\s+)?(?:new\s+)?(?:job|position|role)\s+(?:as\s+(?:an?\s+)?(?:[a-z-]+\s+){1,4})?(?:at|with)\s+${V}`,
    ),
  },
  {
    attribute: "employer",
    pattern: new RegExp(
      String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+|recently\s+)?(?:started|begun)\s+working\s+(?:at|for)\s+${V}`,
    ),
  },
  { attribute: "employer", pattern: new RegExp(String.raw`\bmy\s+new\s+(?:job|employer|company)\s+is\s+at\s+${V}`) },
  // "Starting at Klarna next Monday!", "I start at Klarna on the 1st": the employer to be.
  {
    attribute: "employer",
    pattern: new RegExp(
      String.raw`(?:^|\bi(?:'m|\s+am)\s+|\bi\s+)(?:starting|start)\s+(?:a\s+new\s+job\s+|work\s+)?at\s+${V}`,
    ),
  },
  {
    attribute: "job",
    pattern: new RegExp(String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+)?started\s+working\s+as\s+(?:an?\s+)?${V}`),
  },
  // "I got a job as a midwife at Southmead": the title too (the employer is the pattern above's).
  {
    attribute: "job",
    pattern: new RegExp(
      String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:started|began|got|landed|accepted|took)\s+(?:a\s+|my\s+|the\s+)?(?:new\s+)?(?:job|position|role)\s+as\s+(?:an?\s+)?${V}`,
    ),
  },
  {
    attribute: "employer",
    scanned: labelledValue(new RegExp(`我${ZH_NOW}(?:跳槽到|跳槽去|入职(了)?)`, "g"), toClauseEnd),
  },
  { attribute: "employer", pattern: new RegExp(`我${ZH_NOW}(?:去|到)${ZH_NAME}(?:工作|上班|任职|报到|入职)`) },
  // 「今天是我在一家做跨境电商的公司的第一天」: a first day is a new employer.
  { attribute: "employer", pattern: new RegExp(`我在${ZH_NAME}(?:上班)?的第一天`) },
  // 「我在一所国际学校干了两年产品经理了」.
  { attribute: "employer", pattern: new RegExp(`我${ZH_NOW}在${ZH_NAME}(?:干了|做了|待了|工作了)`) },
  // 「我在上海一家外企做会计」「我现在在一家医院做行政」: a workplace (named by what it is) and the work done there.
  {
    attribute: "employer",
    pattern: new RegExp(`(?:我|^|[，,])${ZH_NOW}在([^，。！？,;；!?\\s]{0,12}?(?:${ZH_WORKPLACES}))(?:做|当)`),
  },
  { attribute: "job", pattern: new RegExp(`我${ZH_NOW}是一(?:名|位)${V_ZH}`) },
  { attribute: "job", scanned: labelledValue(new RegExp(`我${ZH_NOW}转行(?:做|当)(了)?`, "g"), toClauseEnd) },
  // School
  { attribute: "school", pattern: new RegExp(String.raw`${I_NOW}(?:study|go to school|go to college)\s+at\s+${V}`) },
  { attribute: "school", pattern: new RegExp(String.raw`${I_AM}(?:studying|enrolled)\s+at\s+${V}`) },
  {
    attribute: "school",
    pattern: new RegExp(String.raw`${I_AM}an?\s+(?:[a-z]+\s+)?student\s+at\s+${V}`),
  },
  {
    attribute: "school",
    pattern: new RegExp(String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+)?transferred\s+to\s+${V}`),
  },
  {
    attribute: "school",
    pattern: new RegExp(`我${ZH_NOW}在${ZH_NAME}(?:读书|上学|念书|读大学|上大学|读研|读博|读高中|上高中)`),
  },
  {
    attribute: "school",
    scanned: labelledValue(new RegExp(`我${ZH_NOW}(?:转学到|转学去|考上(了)?)`, "g"), toClauseEnd),
  },
  // Partner
  // "My girlfriend Elin is a vet", "my husband, Pete": a name right after the word, told by its capital.
  {
    attribute: "partner",
    cased: true,
    pattern: new RegExp(
      String.raw`\b[Mm]y\s+(?:new\s+)?(?:${PARTNER_EN})\s*,?\s+(\p{Lu}[\p{Ll}'’-]{1,30})\b(?!['’]s)`,
      "u",
    ),
  },
  {
    attribute: "partner",
    pattern: new RegExp(
      String.raw`\b(?:seeing|dating)\s+someone(?:\s+new)?,?\s+(?:her|his|their)\s+name\s+is\s+${EN_FIRST_NAME}\b`,
    ),
  },
  // "Elin and I split up last month", "Update: Sam and I broke up".
  {
    attribute: "partner",
    ended: true,
    pattern: new RegExp(
      String.raw`(?:^|[:;,]\s*)${EN_FIRST_NAME}\s+and\s+i(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:split up|broke up|broken up|divorced|separated)\b`,
    ),
  },
  {
    attribute: "partner",
    pattern: new RegExp(
      String.raw`\bmy\s+(?:new\s+)?(?:${PARTNER_EN})(?:'s\s+name\s+is|\s+is\s+(?:called|named))\s+${V}`,
    ),
  },
  {
    attribute: "partner",
    pattern: new RegExp(
      String.raw`${I_AM}(?:dating|seeing|engaged to|married to|going out with|in a relationship with)\s+${V}`,
    ),
  },
  {
    attribute: "partner",
    pattern: new RegExp(
      String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+)?(?:started dating|got engaged to|got married to|married)\s+${V}`,
    ),
  },
  {
    attribute: "partner",
    ended: true,
    pattern: new RegExp(String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+)?(?:broke|broken)\s+up\s+with\s+${V}`),
  },
  {
    attribute: "partner",
    ended: true,
    pattern: new RegExp(String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+)?(?:divorced|split up with|left)\s+${V}`),
  },
  // Home, said as a rented place: "I rent a place in Lyon", "Home for me is a small flat in Rotterdam".
  // "We just moved to Hamburg", "we live in Porto now": a household's home is the user's.
  {
    attribute: "residence",
    pattern: new RegExp(
      String.raw`\bwe(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+(?:to|into)\s+${V}`,
    ),
  },
  { attribute: "residence", pattern: new RegExp(String.raw`\bwe\s+(?:now\s+)?live\s+in\s+${V}`) },
  // "I'm a teacher at Westfield High", "now I work as a UX designer at Figma": the place of work.
  {
    attribute: "employer",
    pattern: new RegExp(String.raw`${I_AM}an?\s+(?!student\b)(?:[a-z-]{1,30}\s){1,4}?at\s+${V}`),
  },
  {
    attribute: "employer",
    pattern: new RegExp(String.raw`${I_NOW}work\s+as\s+(?:an?\s+)?(?:[a-z-]{1,30}\s){1,4}?at\s+${V}`),
  },
  {
    attribute: "residence",
    pattern: new RegExp(
      String.raw`\bi\s+(?:now\s+|currently\s+)?rent\s+(?:a|an|my)\s+(?:place|flat|apartment|house|room|studio)\s+in\s+${V}`,
    ),
  },
  {
    attribute: "residence",
    pattern: new RegExp(
      String.raw`^home\s+(?:for\s+me\s+)?is\s+(?:a|an|my)\s+(?:(?:small|little|big|tiny|new)\s+)?(?:place|flat|apartment|house|room|studio)\s+in\s+${V}`,
    ),
  },
  // Height, corrected or grown: "I'm 1.78 m tall" → "Oops, I'm 1.82 m"; 「我身高一米七二」 → 「我一米七五」.
  {
    attribute: "height",
    pattern: new RegExp(String.raw`${I_AM}([0-9]{1,3}(?:\.[0-9]{1,2})?\s?(?:m|cm|ft|feet|metres|meters))\b`),
  },
  {
    attribute: "height",
    pattern: /\bmy\s+height\s+is\s+([0-9]{1,3}(?:\.[0-9]{1,2})?\s?(?:m|cm|ft|feet|metres|meters))\b/,
  },
  {
    attribute: "height",
    pattern:
      /我(?:的)?(?:身高)?(?:是|有)?(一米[一二三四五六七八九零〇]{1,2}|1\.[0-9]{1,2}米|1[0-9]{2}\s?(?:cm|厘米|公分))/,
  },
  // "Taylor is my partner", "Ava and I moved in together", "I'm with Robin now, things with Taylor ended".
  {
    attribute: "partner",
    pattern: new RegExp(String.raw`^${EN_FIRST_NAME}\s+is\s+my\s+(?:new\s+)?(?:${PARTNER_EN})\b(?!['’]s)`),
  },
  {
    attribute: "partner",
    pattern: new RegExp(
      String.raw`^${EN_FIRST_NAME}\s+and\s+i\s+(?:just\s+|finally\s+)?(?:moved in together|got engaged|got married|are dating|are together|started dating)\b`,
    ),
  },
  {
    attribute: "partner",
    pattern: new RegExp(String.raw`${I_AM}with\s+${EN_FIRST_NAME}\s+now\b`),
    // "I'm with Google now" is a job: only beside the end of the one before.
    when: /\b(?:ended|over|broke up|split up)\b/,
  },
  {
    attribute: "partner",
    ended: true,
    pattern: new RegExp(String.raw`\bthings\s+with\s+${EN_FIRST_NAME}\s+(?:ended|are over|fell apart)\b`),
  },
  {
    attribute: "partner",
    scanned: labelledValue(new RegExp(`我的?(?:现在的)?(?:${PARTNER_ZH})(?:现在)?叫`, "g"), toClauseEnd),
  },
  {
    attribute: "partner",
    pattern: new RegExp(`我${ZH_NOW}(?:在)?(?:和|跟)${ZH_NAME}(?:谈恋爱|在一起|结婚|订婚)`),
  },
  { attribute: "partner", ended: true, pattern: new RegExp(`我${ZH_NOW}(?:和|跟)${ZH_NAME}(?:分手|离婚)`) },
  // Diet
  { attribute: "diet", pattern: new RegExp(String.raw`${I_AM}(?:a\s+|fully\s+|strictly\s+)?(${EN_DIETS})\b`) },
  {
    attribute: "diet",
    pattern: new RegExp(
      String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+|recently\s+)?(?:gone|went|turned|become|became)\s+(${EN_DIETS})\b`,
    ),
  },
  {
    attribute: "diet",
    pattern: new RegExp(
      String.raw`(?:\bi\s+(?:now\s+)?(?:follow|started|eat)|${I_AM}on)\s+an?\s+(keto|paleo|vegan|vegetarian|low-carb|gluten-free|plant-based)\s+diet\b`,
    ),
  },
  {
    attribute: "diet",
    value: "omnivore",
    pattern: /\bi(?:'ve|'m|\s+have|\s+am)?\s+(?:now\s+|started\s+|back\s+to\s+)?eat(?:ing)?\s+meat\b/,
  },
  {
    attribute: "diet",
    value: "vegetarian",
    pattern: /\bi\s+(?:don't|do not|no longer|never)\s+eat\s+meat\b/,
  },
  {
    attribute: "diet",
    ended: true,
    pattern: new RegExp(
      String.raw`\bi(?:'m|\s+am)\s+no\s+longer\s+(?:a\s+)?(${EN_DIETS})\b|\bi\s+(?:quit|stopped)\s+being\s+(?:a\s+)?(${EN_DIETS})\b`,
    ),
  },
  { attribute: "diet", value: "vegan", pattern: new RegExp(`我${ZH_NOW}(?:吃纯素|是纯素食者|是纯素主义者)`) },
  {
    attribute: "diet",
    value: "vegetarian",
    pattern: new RegExp(`我${ZH_NOW}(?:开始)?(?:吃素|是素食者|是素食主义者|不吃肉)`),
  },
  { attribute: "diet", value: "omnivore", pattern: new RegExp(`我${ZH_NOW}(?:又|重新)?(?:开始)?吃肉`) },
  { attribute: "diet", ended: true, value: "vegetarian", pattern: new RegExp(`我${ZH_NOW}不(?:再)?吃素`) },
  // Car
  { attribute: "car", pattern: new RegExp(String.raw`${I_NOW}drive\s+an?\s+${V}`) },
  { attribute: "car", pattern: new RegExp(String.raw`\bmy\s+(?:new\s+)?car\s+is\s+an?\s+${V}`) },
  {
    attribute: "car",
    ended: true,
    pattern: new RegExp(String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+)?sold\s+my\s+${V}`),
  },
  { attribute: "car", pattern: new RegExp(`我${ZH_NOW}开的是${V_ZH}`) },
  { attribute: "car", scanned: labelledValue(/我的新?车是/g, toClauseEnd) },
  {
    attribute: "car",
    scanned: labelledValue(new RegExp(`我${ZH_NOW}新?(?:买|换)了一?辆`, "g"), toClauseEnd),
  },
  // Pet: the name of one kind of animal, or what the pet is
  {
    attribute: "pet",
    pattern: new RegExp(String.raw`\bmy\s+(${PETS_EN})(?:'s\s+name\s+is|\s+is\s+(?:called|named))\s+${V}`),
  },
  { attribute: "pet:kind", pattern: new RegExp(String.raw`\bmy\s+(?:only\s+)?pet\s+is\s+an?\s+${V}`) },
  { attribute: "pet:dog", scanned: labelledValue(/我(?:的|家的?)?(?:狗狗|小狗|狗)(?:现在)?叫/g, toClauseEnd) },
  { attribute: "pet:cat", scanned: labelledValue(/我(?:的|家的?)?(?:猫咪|小猫|猫)(?:现在)?叫/g, toClauseEnd) },
  { attribute: "pet:rabbit", scanned: labelledValue(/我(?:的|家的?)?兔子(?:现在)?叫/g, toClauseEnd) },
  { attribute: "pet:kind", scanned: labelledValue(/我的宠物是/g, toClauseEnd) },
];

const PET_KINDS: Record<string, string> = {
  puppy: "dog",
  狗: "dog",
  狗狗: "dog",
  小狗: "dog",
  kitten: "cat",
  猫: "cat",
  猫咪: "cat",
  小猫: "cat",
  bunny: "rabbit",
  兔子: "rabbit",
  仓鼠: "hamster",
  鹦鹉: "parrot",
};

const MY_ATTR =
  "name|full name|first name|nickname|birthday|birth date|date of birth|dob|job|occupation|profession|employer|company|address|home address|hometown";

/** In order: the first pattern that finds an attribute in a sentence gives its value. Exported for the tests. */
export const ATTRIBUTE_PATTERNS: readonly AttributePattern[] = [
  {
    attribute: "email",
    pattern: new RegExp(
      String.raw`\bmy\s+(?:new\s+)?(?:email|e-mail|email address)\s+(?:is now|has changed to|changed to|is|=|:)\s+${V_EMAIL}`,
    ),
  },
  {
    attribute: "phone",
    pattern: new RegExp(
      String.raw`\bmy\s+(?:new\s+)?(?:phone|phone number|mobile|mobile number|cell|cell number|number)\s+(?:is now|has changed to|changed to|is|=|:)\s+${V_PHONE}`,
    ),
  },
  {
    attribute: "my",
    pattern: new RegExp(String.raw`\bmy\s+(${MY_ATTR})\s+(?:is now|has changed to|changed to|is|=|:)\s+${V}`),
  },
  {
    attribute: "favorite",
    pattern: new RegExp(
      String.raw`(?:^|\bmy\s+)(?:all[- ]time\s+|absolute\s+|current\s+|new\s+)?(?:favou?rite|fave?)\s+([a-z][a-z ]{0,30}?)\s+(?:is now|has become|is|are)\s+${V}`,
    ),
  },
  { attribute: "name", pattern: new RegExp(String.raw`\b(?:call me|i go by|i'm called|i am called)\s+${V}`) },
  { attribute: "residence", pattern: new RegExp(String.raw`${I_NOW}(?:live|reside)\s+in\s+${V}`) },
  { attribute: "residence", pattern: new RegExp(String.raw`${I_AM}(?:living|based|staying)\s+in\s+${V}`) },
  {
    attribute: "residence",
    pattern: new RegExp(
      String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+(?:to|into)\s+${V}`,
    ),
  },
  { attribute: "employer", pattern: new RegExp(String.raw`${I_NOW}work\s+(?:at|for)\s+${V}`) },
  { attribute: "employer", pattern: new RegExp(String.raw`${I_AM}(?:working|employed)\s+(?:at|for|by)\s+${V}`) },
  { attribute: "job", pattern: new RegExp(String.raw`${I_NOW}work\s+as\s+(?:an?\s+)?${V}`) },
  { attribute: "birthday", pattern: new RegExp(String.raw`\bi\s+was\s+born\s+on\s+${V}`) },
  {
    attribute: "residence",
    ended: true,
    pattern: new RegExp(String.raw`\bi\s+(?:no longer|don't|do not)\s+(?:live|reside)\s+in\s+${V}`),
  },
  {
    attribute: "residence",
    ended: true,
    pattern: new RegExp(String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+)?moved\s+(?:out\s+of|away\s+from)\s+${V}`),
  },
  {
    attribute: "employer",
    ended: true,
    pattern: new RegExp(String.raw`\bi\s+(?:no longer|don't|do not)\s+work\s+(?:at|for)\s+${V}`),
  },
  // "used to" dates the value: it was true, it no longer is.
  {
    attribute: "residence",
    ended: true,
    pattern: new RegExp(String.raw`\bi\s+used\s+to\s+(?:live|reside)\s+in\s+${V}`),
  },
  { attribute: "employer", ended: true, pattern: new RegExp(String.raw`\bi\s+used\s+to\s+work\s+(?:at|for)\s+${V}`) },
  {
    attribute: "employer",
    ended: true,
    pattern: new RegExp(
      String.raw`\bi(?:'ve|\s+have)?\s+(?:just\s+)?(?:left|quit)\s+(?:my\s+job\s+(?:at|with)\s+)?${V}`,
    ),
  },
  {
    attribute: "email",
    scanned: labelledValue(/我的新?(?:邮箱|电子邮箱|邮件地址|email|e-mail)(?:地址)?(?:是|为|[:：])\s*/g, EMAIL_AT),
  },
  {
    attribute: "phone",
    pattern: new RegExp(`我的新?(?:电话|手机|手机号|电话号码|手机号码)(?:号码)?(?:是|为|[:：])\\s*${V_PHONE}`),
  },
  {
    attribute: "favorite",
    pattern: new RegExp(`(?:我|我的)?最(?:喜欢|爱)的([\\u4e00-\\u9fff]{1,6}?)(?:现在)?(?:就是|还是|变成了?|是)${V_ZH}`),
  },
  {
    attribute: "residence",
    scanned: labelledValue(
      new RegExp(`我${ZH_NOW}(?:住在|住于|定居在|定居于|生活在|(?:搬到|搬去|搬家到)(了)?)`, "g"),
      toClauseEnd,
    ),
  },
  {
    attribute: "employer",
    scanned: labelledValue(new RegExp(`我${ZH_NOW}(?:就职于|任职于|供职于)`, "g"), toClauseEnd),
  },
  { attribute: "employer", pattern: new RegExp(`我${ZH_NOW}在([^，。！？,;；!?\\s]{1,20}?)(?:工作|上班|任职|就职)`) },
  { attribute: "job", pattern: new RegExp(`我的(?:工作|职业)(?:是|为)${V_ZH}`) },
  { attribute: "birthday", scanned: labelledValue(/我的?生日(?:是|为|在)/g, toClauseEnd) },
  {
    attribute: "name",
    scanned: labelledValue(/我的名字(?:是|叫)|我名字叫|我叫(?![了过着他她你它车外])/g, toClauseEnd),
  },
  {
    attribute: "residence",
    ended: true,
    scanned: labelledValue(new RegExp(`我${ZH_NOW}(?:不再|不)住在`, "g"), toClauseEnd),
  },
  {
    attribute: "residence",
    ended: true,
    scanned: labelledValue(new RegExp(`我${ZH_NOW}(?:搬离|搬出)(了)?`, "g"), toClauseEnd),
  },
  {
    attribute: "employer",
    ended: true,
    scanned: labelledValue(new RegExp(`我${ZH_NOW}(?:不再|不)在`, "g"), beforeWords(["工作", "上班"], ZH_EMPLOYER_MAX)),
  },
  {
    attribute: "employer",
    ended: true,
    scanned: labelledValue(new RegExp(`我${ZH_NOW}从`, "g"), beforeWords(["离职", "辞职"], ZH_EMPLOYER_MAX)),
  },
  {
    attribute: "residence",
    ended: true,
    scanned: labelledValue(/我(?:以前|之前|曾经)(?:住在|住于|生活在)/g, toClauseEnd),
  },
  {
    attribute: "employer",
    ended: true,
    pattern: /我(?:以前|之前|曾经)在([^，。！？,;；!?\s]{1,20}?)(?:工作|上班|任职|就职)/,
  },
  ...LIFE_PATTERNS,
];

const ATTRIBUTE_ALIASES: Record<string, string> = {
  "full name": "name",
  "first name": "name",
  "birth date": "birthday",
  "date of birth": "birthday",
  dob: "birthday",
  occupation: "job",
  profession: "job",
  company: "employer",
  "home address": "address",
  "e-mail": "email",
  "email address": "email",
};

const FAVORITE_KINDS: Record<string, string> = {
  colour: "color",
  颜色: "color",
  film: "movie",
  电影: "movie",
  dish: "food",
  meal: "food",
  食物: "food",
  菜: "food",
  水果: "fruit",
  书: "book",
  歌: "song",
  歌曲: "song",
  歌手: "singer",
  乐队: "band",
  运动: "sport",
  游戏: "game",
  动物: "animal",
  城市: "city",
  国家: "country",
  饮料: "drink",
  beverage: "drink",
  演员: "actor",
  作家: "author",
  writer: "author",
  花: "flower",
  季节: "season",
  数字: "number",
  品牌: "brand",
  电视剧: "show",
  "tv show": "show",
};

/** Values where the pattern matched a habit, not an attribute: "I work from home", 「我在家工作」. */
const NOT_A_VALUE = new Set(["home", "from home", "remotely", "家", "家里", "这里", "那里", "this", "that", "it"]);

function favoriteKind(kind: string): string {
  const k = kind.trim();
  const singular = k.length > 3 && k.endsWith("s") && !k.endsWith("ss") ? k.slice(0, -1) : k;
  return FAVORITE_KINDS[k] ?? FAVORITE_KINDS[singular] ?? singular;
}

/** Comparable value: no articles, time fillers or trailing particles ("now green" = "green"). */
export function canonicalValue(value: string): string {
  return normalise(value)
    .replace(/^(?:now|actually|still|the|a|an)\s+/g, "")
    .replace(/(?<!\s)\s+(?:now|anymore|these days|nowadays)$/g, "")
    .replace(/(?<![了啦呢的])[了啦呢的]+$/u, "")
    .replace(/[\s"'“”「」]+/g, " ")
    .trim();
}

/** The pattern's defined groups in `sentence` (for a scanned one, its value); null when it does not match. */
function groupsOf(p: AttributePattern, sentence: string): string[] | null {
  if (p.when && !p.when.test(sentence)) return null;
  if ("scanned" in p) {
    const value = findLabelledValue(p.scanned, sentence);
    return value === null ? null : [value];
  }
  const m = p.pattern.exec(sentence);
  return m ? m.slice(1).filter((g) => g !== undefined) : null;
}

function factFrom(p: AttributePattern, groups: string[]): AttributeFact | null {
  let attribute = p.attribute;
  if (attribute === "favorite") attribute = `favorite:${favoriteKind(groups.shift() ?? "")}`;
  if (attribute === "pet") {
    const kind = (groups.shift() ?? "").trim();
    attribute = `pet:${PET_KINDS[kind] ?? kind}`;
  }
  if (attribute === "my") {
    const raw = groups.shift() ?? "";
    attribute = ATTRIBUTE_ALIASES[raw] ?? raw;
  }
  const value = p.value ?? canonicalValue(groups[0] ?? "");
  if (value.length === 0 || NOT_A_VALUE.has(value)) return null;
  return { attribute, value, ended: p.ended === true };
}

/** Every attribute fact in a text, sentence by sentence; the same attribute is reported once. */
export function parseAttributes(text: string): AttributeFact[] {
  const facts = new Map<string, AttributeFact>();
  for (const written of splitSentences(text)) {
    const sentence = normalise(written);
    for (const p of ATTRIBUTE_PATTERNS) {
      const groups = groupsOf(p, p.cased ? written : sentence);
      const fact = groups ? factFrom(p, groups) : null;
      const key = fact ? `${fact.attribute}|${fact.ended}` : "";
      if (fact && !facts.has(key)) facts.set(key, fact);
    }
  }
  return [...facts.values()];
}
