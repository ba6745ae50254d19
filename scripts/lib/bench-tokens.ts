/**
 * @module scripts/lib/bench-tokens
 * The token estimate every figure of the recall benchmark uses for what an agent receives.
 */

/** CJK ideographs, kana, Hangul and full-width punctuation: about one token each. */
const WIDE = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/gu;

/**
 * Token estimate used by every figure of the benchmark: one token per CJK character, one per four
 * other characters (the usual rule of thumb for BPE tokenizers of English text), rounded up.
 */
export function estimateTokens(text: string): number {
  const wide = text.match(WIDE)?.length ?? 0;
  const rest = [...text].length - wide;
  return wide + Math.ceil(rest / 4);
}
