/**
 * @module memory/text/query-framing
 * Removes the conversational framing users wrap around a recall question — 「我曾经和你提到过…」
 * 「你还记得…吗」「帮我回忆一下」「…来着」, "do you remember …", "I told you …" — before the query is
 * tokenised. The framing is shared by every question, so its words (记得, 提到, 说过, 之前) only
 * match memories that happen to contain them (「记得吃早饭」) and push the answer down.
 * Only the lexical query loses it: time expressions and speaker names are read from the full text.
 *
 * Every pattern is an alternation of fixed strings with optional fixed parts (no nested or
 * unbounded quantifiers), so each runs in time linear in the query's length.
 */

// 我(曾经|之前…)(和|跟…)你(说|提…)过: "I (once) told you"; the subject and time word are optional.
const WHO = "(?:我们|我)?";
const WHEN = "(?:曾经|之前|以前|先前|上次|前几天|好像|应该|记得|是不是|有没有|不是)?";
const TO_YOU = "(?:和|跟|对|同|给|向)(?:你|您)";
const SAY = "(?:说|讲|提|聊|谈|告诉|分享)(?:起|到)?过?(?:的|了)?";
const TOLD_YOU = `${WHO}${WHEN}${TO_YOU}${SAY}`;
// 我(之前)说过 / 我提到过 / 我们聊过: without "to you", only when 过 marks it as past telling.
const SAID_BEFORE = `${WHO}(?:曾经|之前|以前|先前|上次|好像)?(?:说|讲|提|提到|聊|聊到|谈到|提起)过(?:的)?`;
const REMEMBER = "(?:你|您)?(?:还)?(?:记得|记不记得|还记得)";
const RECALL_ASK =
  "(?:(?:你|您)?(?:能|可以)?帮我(?:回忆|想|查|找|看|翻)(?:一下|一查|一找|一想|想|查|找|看)?|提醒我一下|我(?:忘了|忘记了|想不起来了|记不清了|记不太清了)|之前聊天的时候|上次聊天的时候|我们之前聊过)";
const TAIL = "(?:来着|是吧|对吧|对不对|吗)";

const ZH_FRAMING = new RegExp(`${TOLD_YOU}|${SAID_BEFORE}|${RECALL_ASK}|${REMEMBER}|${TAIL}`, "gu");

const EN_FRAMING =
  /\b(?:do|did|can|could|would)\s+you\s+(?:still\s+)?(?:remember|recall)\b|\b(?:i\s+)?(?:once\s+|previously\s+|already\s+)?(?:told|mentioned\s+to|said\s+to)\s+you\b|\bdid\s+i\s+(?:ever\s+)?(?:tell|mention\s+to|say\s+to)\s+you\b|\b(?:do|did)\s+you\s+know\b|\bremind\s+me\b|\bas\s+i\s+(?:said|mentioned)\b|\bi\s+(?:forgot|forget)\b/giu;

/**
 * The query without conversational framing. When nothing but framing is left (「你还记得吗」), the
 * query is returned as typed, so a recall never becomes empty by this step.
 */
export function stripFraming(query: string): string {
  const stripped = query.replace(ZH_FRAMING, " ").replace(EN_FRAMING, " ");
  return /[\p{L}\p{N}]/u.test(stripped) ? stripped : query;
}
