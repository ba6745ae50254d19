/**
 * @module memory/text/token-estimate
 * The one token estimate of the project: what the first recall of a session may spend
 * (recall/progressive-injection.ts) and what the recall benchmark reports an agent receives.
 * It imports nothing, so the scripts can load it under plain Node.
 */

/** CJK ideographs, kana, Hangul and full-width punctuation: about one token each. */
const WIDE = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/gu;

const WIDE_CHAR = new RegExp(WIDE.source, "u");

/** Whether one character counts as a token of its own (CJK, kana, Hangul, full-width). */
export function isWide(char: string): boolean {
  return WIDE_CHAR.test(char);
}

/**
 * One token per CJK character, one per four other characters (the usual rule of thumb for BPE
 * tokenizers of English text), rounded up.
 */
export function estimateTokens(text: string): number {
  const wide = text.match(WIDE)?.length ?? 0;
  const rest = [...text].length - wide;
  return wide + Math.ceil(rest / 4);
}
