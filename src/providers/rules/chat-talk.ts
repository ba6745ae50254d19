/**
 * @module providers/rules/chat-talk
 * English sentences of a user's that look first-person but state nothing about the speaker's life,
 * so the rule-based extractor never keeps them: an exhortation ("Let's keep supporting each other"),
 * a generalisation about people at large ("It's amazing how nature can make us feel small", "Taking
 * care of ourselves is key", "Books can really inspire us"), a bare reply or agreement ("I did!",
 * "We got this!", "I hope so", "I love it."), a wish for someone else ("I hope you find a place
 * soon"), a promise to the other speaker ("I'll reach out if I need anything"), a goodbye, a catch-up
 * with no news in it yet ("Been a while since we chatted") and a verdict on what is coming ("Gonna be
 * awesome!"). The exhortation and the generalisations speak for everyone ("we", "us", "our"), so they
 * hold only when the sentence does not also speak of the speaker alone: "Let's meet up, I moved to
 * Porto last month" is kept. Pure; every pattern is a flat alternation over normalised text (lower
 * case, single spaces), linear (test/node/redos.test.ts); the catch-up is a word-set test.
 */

/** One rule: a name for the docs and tests, and what it matches. */
export interface ChatTalkRule {
  name: string;
  pattern: Pick<RegExp, "test">;
  /** The rule holds only when the sentence does not also speak of the speaker alone (I, my, me). */
  unlessSelf: boolean;
}

/** The speaker alone: I, my, me (not "we", which a generalisation speaks for everyone with). */
const SELF = /\b(?:i|i'm|i've|i'd|i'll|im|ive|my|me|mine|myself)\b/;
/** "we" as a subject: "We love them; they give us fresh air" says what the speaker's household does. */
const WE_SUBJECT = /\b(?:we|we're|we've|we'll|we'd)\b/;

const EVALUATION =
  "great|amazing|awesome|cool|nice|important|crucial|key|inspiring|wonderful|empowering|fun|good|tough|hard|crazy|wild|incredible|sweet|rewarding|fulfilling|satisfying|special|beautiful|exciting|interesting|impressive";
const DEGREE = "(?:(?:so|really|always|super|just|truly|very|such|pretty|totally|definitely)\\s+)?";

/** "It's amazing how …", "It's great to …", "It's true that …": a verdict on life at large. */
const VERDICT = new RegExp(
  String.raw`^(?:but |and |so |yeah,? |yes,? )?(?:it's|it is|that's|that is|its)\s+${DEGREE}(?:${EVALUATION}|true)\s+(?:to|when|how|that|knowing|seeing|having|being|hearing|watching|what)\b`,
);
/** "Taking care of ourselves is key", "Pets are the best for lifting our spirits". */
const MAXIM = new RegExp(
  String.raw`\b(?:is|are|'s)\s+${DEGREE}(?:important|key|crucial|essential|vital|everything|the best|worth it)\b`,
);
/** "Books can inspire us", "Nature reminds us …", "It grounds us": what things do for people at large. */
const FOR_US =
  /\b(?:make|makes|help|helps|remind|reminds|take|takes|bring|brings|show|shows|inspire|inspires|keep|keeps|give|gives|let|lets|teach|teaches|fill|fills|get|gets|allow|allows|push|pushes|motivate|motivates|connect|connects|ground|grounds)\s+(?:us|our)\b/;

/** "I hope you find a place soon", "I hope it does well": a wish for someone or something else. */
const WISH =
  /^(?:and |but |yeah,? )?i\s+(?:(?:really|just|do|truly)\s+)?hope\s+(?:you|your|u|ur|they|it|it's|that|this|everything|he|she|him|her|things)\b/;
/** A wish that also names something of the speaker's ("I hope it doesn't rain at my wedding") says something. */
const OWN = /\bmy\b|\b(?:i'm|i've|i'll)\b/;

/** "I'll take a look", "I'll reach out if I need anything": a reply that promises the other speaker something. */
const REPLY_PROMISE =
  /\b(?:i'll|i will|i'm gonna|i'm going to)\s+(?:(?:definitely|sure|totally|make sure to|be sure to|have to)\s+)?(?:take a look|check (?:it|that|them|those|these|this) out|check out (?:it|that|those|these|them|this)\b|get back to you|keep my fingers crossed|wait for (?:it|the link|that|your)\b|reach out(?! to)|add it to my list|be tuning in|give you a shout|share (?:more|it|them|some) (?:\w+ )?with you|get (?:it|the \w+|them) to you|talk to you)/;

/** "since we last talked", "since our last chat": how a catch-up opens. */
const SINCE_WE_TALKED =
  /\bsince (?:we|i) (?:last )?(?:talked|spoke|chatted|caught up|heard from you|hear from you)(?: last)?\b|\bsince (?:our|we had our) last (?:chat|talk|conversation)\b/;
/** What a catch-up says around that phrase when it says nothing yet ("A lot's happened", "Been a busy week"). */
const VAGUE = new Set(
  "a lot lot's lots much so has have had happened happening been it's its it a few days day while ages couple week weeks month busy crazy wild quite eventful stuff stuff's things thing something some pretty cool interesting big massive man wow the adventure i've we've we i of going goin goin' on long time great good tough rough hectic hey hi oh well this that there".split(
    " ",
  ),
);

/** "Been a while since we chatted", "A lot's happened since we last spoke": a catch-up with no news in it yet. */
function emptyCatchUp(text: string): boolean {
  const m = SINCE_WE_TALKED.exec(text);
  if (m === null) return false;
  const rest = `${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}`;
  // A name the speaker opens with ("James, been a few days …") is the other speaker's, not news.
  const words = rest.replace(/^[a-z]+,/, " ").match(/[a-z']+/g) ?? [];
  return words.every((w) => VAGUE.has(w));
}

export const CHAT_TALK: ChatTalkRule[] = [
  { name: "exhortation", pattern: /(?:^|, )(?:let's|lets)\b/, unlessSelf: true },
  { name: "verdict on life", pattern: VERDICT, unlessSelf: true },
  { name: "maxim", pattern: MAXIM, unlessSelf: true },
  {
    name: "what things do for us",
    pattern: { test: (text) => FOR_US.test(text) && !WE_SUBJECT.test(text) },
    unlessSelf: true,
  },
  {
    // "I did!", "I have.", "We got this!", "I got it covered": an answer that needs the question.
    name: "bare reply",
    pattern:
      /^(?:i|we)\s+(?:do|did|have|had|am|was|were|will|can|could|would|got (?:it|this)|get it)(?:\s+(?:too|as well|so|already|indeed|covered))?[.!]*$/,
    unlessSelf: false,
  },
  {
    // "I love it.", "I hope so!", "I 100% agree, Mel.": agreement with what the other speaker said.
    name: "bare agreement",
    pattern:
      /^(?:i|we)\s+(?:(?:really|just|absolutely|totally|so|do|100%|completely|fully)\s+)?(?:love|like|adore|agree|think|hope|bet|guess|know|get)(?:\s+(?:it|that|this|so|the thought|the idea|what you mean|with you))?(?:\s+(?:too|as well|so much))?(?:, [a-z]+)?[.!]*$/,
    unlessSelf: false,
  },
  { name: "wish", pattern: { test: (text) => WISH.test(text) && !OWN.test(text) }, unlessSelf: false },
  { name: "reply promise", pattern: REPLY_PROMISE, unlessSelf: false },
  {
    name: "goodbye",
    pattern:
      /^(?:(?:well|ok|okay|sorry),? )?(?:i (?:have|got|need) to|i've got to|i gotta|gotta) (?:go|run|head out|get going)(?:,? (?:bye|now|talk soon|see you|ttyl))*[.!]*$|^(?:i'll |i will )?(?:talk to you|see you|catch you) (?:soon|later)\b/,
    unlessSelf: false,
  },
  { name: "empty catch-up", pattern: { test: emptyCatchUp }, unlessSelf: false },
  {
    // "Gonna be awesome!", "It's gonna be a great night": a verdict on what is coming, not the speaker's plan.
    name: "verdict ahead",
    pattern: new RegExp(
      String.raw`^(?:it's |it is |that's |it'll |this is )?(?:gonna|going to) be\s+(?:a |an )?${DEGREE}(?:${EVALUATION}|blast|big|epic|lit)\b`,
    ),
    unlessSelf: true,
  },
];

/** The name of the first chat-talk rule a normalised English sentence matches, or null. */
export function chatTalk(text: string): string | null {
  const self = SELF.test(text);
  for (const rule of CHAT_TALK) if (!(rule.unlessSelf && self) && rule.pattern.test(text)) return rule.name;
  return null;
}
