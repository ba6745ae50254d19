/**
 * @module providers/rules/fact-signals
 * The evidence a rule-based extractor weighs before it keeps a sentence of the user's as a memory:
 * is the user the subject (I / we / my, 我 / 我们, or an English sentence that drops its "I"), did
 * something happen or change (a past or perfect verb, "just", a date), is a named thing in it, and
 * the counter-evidence of chat: words aimed at the other speaker ("you", 你), pep talk ("keep
 * going"), bare feelings ("I'm so glad"). Pure; every pattern is a flat alternation or a bounded
 * class, so each runs in linear time (test/node/redos.test.ts checks them); what recheck could not
 * settle as a regex is a scan.
 */

/** One signal: a name for the docs and tests, a pattern (or a scan) over normalised (lower-case, NFKC) text, a weight. */
export interface Signal {
  name: string;
  pattern: Pick<RegExp, "test">;
  weight: number;
}

/** A book's or film's title in 《》: 1–30 characters between the marks, none of them 》. */
const TITLE_MAX = 30;
/** A Chinese place or institution: a Han character, then one of these words. */
const ZH_PLACE = /[\u4e00-\u9fff](?:公园|大学|公司|医院|书店|餐厅|咖啡馆|市|省|路|山|湖)/;

/**
 * 《…》 or a named place. Was `/《[^》]{1,30}》|[\u4e00-\u9fff]{1,8}(?:公园|…)/`, which recheck could
 * not settle; as a test it means the same: a title's 》 has a 《 at most 31 characters
 * before it with no 》 between (each 》 looks back 30 characters), and a place needs one Han
 * character before its word (`{1,8}` can always take just one).
 */
function namesAThing(text: string): boolean {
  let previousClose = -1;
  for (let close = text.indexOf("》"); close !== -1; close = text.indexOf("》", close + 1)) {
    const from = Math.max(previousClose + 1, close - TITLE_MAX - 1);
    if (close - 1 > from && text.slice(from, close - 1).includes("《")) return true;
    previousClose = close;
  }
  return ZH_PLACE.test(text);
}

const EN_PAST_VERBS = [
  "went",
  "took",
  "got",
  "started",
  "began",
  "finished",
  "made",
  "bought",
  "signed",
  "joined",
  "visited",
  "tried",
  "found",
  "ran",
  "moved",
  "saw",
  "met",
  "won",
  "lost",
  "adopted",
  "booked",
  "picked",
  "learned",
  "learnt",
  "read",
  "watched",
  "painted",
  "wrote",
  "built",
  "decided",
  "applied",
  "quit",
  "graduated",
  "married",
  "attended",
  "volunteered",
  "received",
  "launched",
  "opened",
  "created",
  "completed",
  "traveled",
  "travelled",
  "hiked",
  "played",
  "performed",
  "baked",
  "cooked",
  "drew",
  "designed",
  "taught",
  "gave",
  "donated",
  "organized",
  "organised",
  "hosted",
  "celebrated",
  "switched",
  "changed",
  "upgraded",
  "fixed",
  "discovered",
  "explored",
  "camped",
  "swam",
  "flew",
  "drove",
  "hit",
  "landed",
  "passed",
  "published",
  "released",
  "recorded",
  "sold",
  "shut",
  "closed",
  "renovated",
  "rescued",
  "planted",
  "grew",
  "entered",
  "competed",
  "practiced",
  "practised",
  "studied",
  "worked",
  "started",
  "had",
  "did",
  "heard",
  "left",
  "spent",
  "brought",
  "caught",
  "wore",
  "sang",
  "chose",
  "sent",
  "fell",
  "broke",
  "ate",
  "rode",
  "became",
  "came",
  "held",
  "loved",
  "enjoyed",
];

const EN_ADVERB = String.raw`(?:just|finally|recently|also|actually|already|even|really|totally|officially|then|last|both|all)`;

/** Who is speaking about themselves: "I", "we", "my kids and I", or a sentence whose "I" is dropped. */
const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|im|ive|we|we're|we've|we'll|my|our|me|us|myself|ourselves)\b/;

/** "Took a trip to Rome", "Just got new shoes", "Gonna continue my edu": chat English without its "I". */
const DROPPED_SUBJECT = new RegExp(
  String.raw`^(?:(?:just|finally|recently|still|also)\s+)?(?:${EN_PAST_VERBS.join("|")}|gonna|going to|planning|thinking of|been|working on|started)\b`,
);

const ZH_FIRST_PERSON = /我|咱|俺/;

const DETERMINATION =
  /\b(?:keep (?:chasing|plugging|fighting|moving forward|reaching)|(?:chase|chasing|reach|reaching|follow|following|go for|going for|go after|going after) (?:my|our|those|these|the) dreams|make (?:my|our) dreams (?:come true|happen|a reality)|make it happen|(?:gonna|going to|will) make it(?! to)|not (?:gonna |going to )?giv(?:e|ing) up|won't let (?:this|it|that|anything|them) (?:get|bring|keep) me down|try my best|giving it my best|pushing (?:on|forward|through)|staying (?:positive|optimistic|upbeat|hopeful|strong|motivated|determined))\b/;
/** A clause before the resolve: "…, but", "… and", "… - ". */
const CLAUSE_BEFORE = /\b(?:but|and|though)\s|\s[-–—]\s/;

/** Resolve said as a sentence of its own, not after a clause that says something else. */
function determination(text: string): boolean {
  const m = DETERMINATION.exec(text);
  return m !== null && !CLAUSE_BEFORE.test(text.slice(0, m.index));
}

export const SIGNALS: Signal[] = [
  {
    name: "first-person event",
    pattern: new RegExp(
      String.raw`\b(?:i|we|they and i|and i)\s+(?:${EN_ADVERB}\s+){0,3}(?:${EN_PAST_VERBS.join("|")})\b`,
    ),
    weight: 2,
  },
  {
    name: "first-person perfect",
    pattern: new RegExp(
      String.raw`\b(?:i've|i have|we've|we have|ive)\s+(?:${EN_ADVERB}\s+){0,2}(?:${EN_PAST_VERBS.join("|")}|gone|done|seen|taken|known|grown|begun|written|ridden|flown|eaten|given|been (?:to|working|learning|taking|volunteering|training|playing|writing|painting|reading|doing)|decided|started)\b`,
    ),
    weight: 2,
  },
  {
    name: "first-person regular past",
    pattern: new RegExp(
      String.raw`\b(?:i|we)\s+(?:${EN_ADVERB}\s+){0,3}(?!(?:wanted|needed|hoped|wished|seemed|used|guessed|figured|supposed|meant|noticed)\b)[a-z]{3,}ed\b`,
    ),
    weight: 2,
  },
  {
    // "I've jammed with friends before", "We've painted the whole house": a regular verb in the perfect.
    name: "first-person perfect, regular",
    pattern: new RegExp(
      String.raw`\b(?:i've|i have|we've|we have|ive)\s+(?:${EN_ADVERB}\s+){0,2}(?!(?:wanted|needed|hoped|wished|seemed|used|guessed|figured|supposed|meant|noticed)\b)[a-z]{3,}ed\b`,
    ),
    weight: 2,
  },
  {
    name: "trying something out",
    pattern: /\b(?:i'm|i am|im|we're|we are)\s+(?:now\s+|currently\s+|also\s+)?trying out\b/,
    weight: 2,
  },
  {
    name: "first-person ongoing",
    pattern: /\b(?:i've|we've|i have|we have|ive) (?:(?:just|also|really|recently|always) )?been [a-z]{3,}ing\b/,
    weight: 2,
  },
  { name: "dropped subject", pattern: DROPPED_SUBJECT, weight: 2 },
  {
    name: "a change of state",
    pattern:
      /\b(?:i'm|i am|im|we're|we are)\s+(?:now\s+|currently\s+|finally\s+|officially\s+)?(?:moving|starting|working on|learning|training|taking|planning|organizing|organising|volunteering|writing|building|running|studying|preparing|saving|teaching|mentoring|doing|pregnant|engaged|married|retired|expecting)\b/,
    weight: 2,
  },
  {
    name: "a place or habit",
    pattern:
      /\b(?:i was|we were|i'm|i am|we're) (?:in|at|on|with|back from|visiting|staying)\b|\b(?:i|we) (?:usually |often |always |sometimes |still |regularly |also |even )?(?:take|go|play|do|make|write|read|walk|run|cook|bake|paint|volunteer|work|teach|visit|practice|practise|watch|collect|have|own|keep|use|see)\b/,
    weight: 1,
  },
  {
    name: "a plan",
    pattern:
      /\b(?:i'm|i am|im|we're|we are)\s+(?:going to|gonna|planning|about to|thinking (?:of|about)|hoping to|heading)\b|\b(?:i|we)\s+(?:plan|intend|will|'ll)\b|\b(?:i'll|we'll)\b|\bgonna\b/,
    weight: 1,
  },
  {
    name: "a date",
    pattern:
      /\b(?:yesterday|today|tonight|tomorrow|ago|recently|lately|last (?:week|weekend|month|year|night|summer|winter|spring|fall|friday|saturday|sunday|monday|tuesday|wednesday|thursday)|this (?:week|weekend|month|year|morning|summer)|next (?:week|weekend|month|year|summer)|week after next|day after tomorrow|since|in (?:january|february|march|april|may|june|july|august|september|october|november|december))\b/,
    weight: 1,
  },
  { name: "a number", pattern: /\d/, weight: 1 },
  { name: "my thing", pattern: /\b(?:my|our)\s+(?:own\s+|new\s+|first\s+|favou?rite\s+)?[a-z]{3,}/, weight: 1 },
  {
    name: "zh first-person event",
    pattern:
      /我(?:们)?[^，。！？,!?]{0,8}?(?:了|过|开始|刚|最近|昨天|今天|上周|上个月|去年|前几天|报名|参加|搬|换|买|养|学|读|看|去|完成|决定|入职|辞职|毕业|结婚|认识|野餐|散步|跑步|爬山|逛|玩|拍|遇到|见到|参观|旅行|旅游|骑|游泳|练|做)/,
    weight: 2,
  },
  {
    name: "zh named thing",
    pattern: { test: namesAThing },
    weight: 1,
  },
];

/** Counter-evidence: the sentence is about the other speaker, a pep talk, or a feeling with nothing behind it. */
export const COUNTER_SIGNALS: Signal[] = [
  { name: "aimed at the other speaker", pattern: /\b(?:you|your|you're|you've|you'll|u|ur|yours)\b/, weight: -2 },
  {
    name: "pep talk",
    pattern:
      /\b(?:keep (?:going|pushing|it up|at it|working|on|up(?! with)|trying|shining|believing)|never (?:give up|quit)|won't (?:give up|quit)|don't (?:give up|quit)|(?<!\b(?:me|us|i|we|them|him|her|you) )stay (?:strong|positive|determined|hopeful|focused|motivated)|believe in (?:myself|yourself)|do my best|make you proud|see what happens|see you|talk (?:soon|later)|chat (?:soon|later)|let me know|lemme know|check it out|take care)\b/,
    weight: -3,
  },
  {
    // "I'm gonna keep chasing those dreams", "I'm not giving up", "I'm staying positive": resolve, not a plan.
    // After a clause of its own ("Injury's been rough, but I'm staying positive") it does not weigh that clause down.
    name: "determination",
    pattern: { test: determination },
    weight: -3,
  },
  {
    name: "a bare feeling",
    pattern:
      /\b(?:i'm|i am|im|i feel|i felt|i was|i'm so|i'm really)\s+(?:so\s+|really\s+|super\s+|totally\s+|very\s+)?(?:glad|happy|proud|grateful|thankful|excited|stoked|thrilled|lucky|blessed|sorry|pumped|touched|honored|honoured|amazed|impressed|inspired|relieved|hopeful|confident|sure)\b/,
    weight: -2,
  },
  {
    // "I'll keep you posted", "I'll give it a try", "Thanks, I will!": a reply, not a plan.
    name: "a chat promise",
    pattern:
      /\b(?:i'll|i will)\s+(?:definitely\s+|sure\s+|totally\s+|be sure to\s+|have to\s+|always\s+)?(?:keep (?:that|it|this) in mind|keep (?:you|ya|u) (?:posted|updated|in the loop)|let (?:you|ya|u) know|give it a (?:try|shot|go)|try (?:that|it|this)|take your advice|send (?:it|you|them|one)|show (?:you|ya|u)|check (?:it|that|them) out|look into (?:it|that)|think about it|be (?:here|there) for you|call (?:her|him|them))\b|^(?:thanks,? |sure,? |ok,? |okay,? )?(?:i will|i'll do it|i definitely will|i sure will)(?:,? thanks)?[.!]*$/,
    weight: -3,
  },
  { name: "zh aimed at the other speaker", pattern: /你|您/, weight: -2 },
  { name: "zh pep talk", pattern: /加油|继续努力|别放弃|不要放弃|相信自己|保重|回头聊|再聊/, weight: -3 },
];

/** True when the user speaks about themselves in this (normalised) sentence. */
export function speaksOfSelf(text: string): boolean {
  return FIRST_PERSON.test(text) || DROPPED_SUBJECT.test(text) || ZH_FIRST_PERSON.test(text);
}

/** Sum of the weights of every signal and counter-signal that fires on a normalised sentence. */
export function signalScore(text: string): number {
  let score = 0;
  for (const s of SIGNALS) if (s.pattern.test(text)) score += s.weight;
  for (const s of COUNTER_SIGNALS) if (s.pattern.test(text)) score += s.weight;
  return score;
}
