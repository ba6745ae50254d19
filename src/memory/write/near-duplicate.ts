/**
 * @module memory/write/near-duplicate
 * The write pipeline's fast near-duplicate test: is a new text a restatement of a stored one, so
 * that merging loses nothing? Pure domain logic, no I/O. Vector similarity alone cannot say: both
 * embedders score "I like coffee" vs "I don't like coffee" (0.82 on the hash embedder) as high as
 * "I love sushi" vs "I really love sushi" (0.81), and "I love sushi and ramen" as high as either.
 * So a merge also needs the same negation/tense cues and no content word the stored text lacks.
 * Paraphrases (function words, contractions, number forms, synonyms of one concept) are compared in
 * one canonical wording (paraphrase.ts); two texts about different people never merge.
 * Anything this test refuses still reaches the Llm's conflict check, which may call it a duplicate.
 * Without a vector (the embedding model is unavailable) the cosine bar is replaced by a stricter
 * token bar, NEAR_DUPLICATE.lexicalOnly: the other guards are the same.
 * Measured by `npm run bench:dedupe` (bench/dedupe-pairs.json).
 */
import { indexTokens, lexicalOverlap } from "../text/tokenize";
import { canonicalWording, peopleOf } from "./paraphrase";

/**
 * Thresholds per embedder kind. Local hash vectors of restatements measured 0.81–1.0 (intensifier
 * added: 0.81 "I really love sushi", 0.85 「我特别喜欢喝乌龙茶」); bge-m3 places paraphrases higher
 * and unrelated text at 0.3–0.45, so its bar is higher. The token guards below carry the safety;
 * the cosine bar keeps texts that share words but not meaning apart.
 */
export const NEAR_DUPLICATE = {
  cosine: { local: 0.75, "workers-ai": 0.88 } as Record<string, number>,
  /** Jaccard overlap of index tokens (stems, CJK bigrams and characters). */
  overlap: 0.6,
  /**
   * The overlap (intensifiers aside) that must hold instead of the cosine bar when the new text has
   * no vector. With "adds nothing" and the same cues, 0.8 merges restatements ("I really love sushi"
   * → "I love sushi", overlap 1) and leaves a fact that is a part of a longer one ("I love sushi" beside "I
   * love sushi and ramen", 0.67) to be stored: a missed merge costs a duplicate consolidation folds later.
   */
  lexicalOnly: 0.8,
} as const;

/** Words that only strengthen a statement: adding them restates it. */
const EN_INTENSIFIERS =
  /\b(?:really|truly|so|very|much|absolutely|definitely|totally|honestly|actually|still|quite|always|a\s+lot)\b/gi;
// Multi-character only: single characters (超, 好) also start content words (超市, 好友).
const ZH_INTENSIFIERS = /真的|特别|非常|十分|超级|相当|一直|确实|其实|实在/g;

/**
 * Cues that flip or date a statement: negation, "no longer", "used to", "anymore", stopping.
 * Two texts are restatements only when they carry the same set of cues.
 */
const EN_CUES =
  /\b(?:not|no|never|none|nothing|nobody|nor|don't|dont|doesn't|doesnt|didn't|didnt|isn't|isnt|aren't|arent|wasn't|wasnt|won't|wont|can't|cant|cannot|couldn't|couldnt|shouldn't|wouldn't|anymore|longer|used|formerly|former|stopped|quit|hate|hates|dislike|dislikes|without|except|ex)\b/gi;
// 别 only as "don't": not inside 特别, 区别, 别人 ….
const ZH_CUES =
  /不再|不|没|(?<![特区分告级类性个差识鉴辨])别(?![人的处墅])|无|未|非|莫|勿|曾经|以前|之前|以往|讨厌|戒|停|再也/g;

function withoutIntensifiers(text: string): string {
  return text.normalize("NFKC").replace(EN_INTENSIFIERS, " ").replace(ZH_INTENSIFIERS, " ");
}

function cues(text: string): string {
  const plain = withoutIntensifiers(text);
  const found = [...(plain.toLowerCase().replace(/[’‘`]/g, "'").match(EN_CUES) ?? []), ...(plain.match(ZH_CUES) ?? [])];
  return [...new Set(found.map((c) => c.replace("'", "")))].sort().join("|");
}

function contentTokens(text: string): Set<string> {
  return new Set(indexTokens(withoutIntensifiers(text)));
}

/** True when every content token of `next` (intensifiers aside) is already in `stored`. */
export function addsNothing(next: string, stored: string): boolean {
  const have = contentTokens(stored);
  const add = contentTokens(next);
  if (add.size === 0) return false;
  for (const t of add) if (!have.has(t)) return false;
  return true;
}

/** Same negation and tense cues ("I like coffee" ≠ "I don't like coffee"; 「我喜欢猫」 ≠ 「我不喜欢猫」). */
export function sameCues(a: string, b: string): boolean {
  return cues(a) === cues(b);
}

/** The cosine bar: the one measured for this deployment (NEAR_DUPLICATE_COSINE) when set, else the embedder kind's. */
export function nearDuplicateBar(embedderKind: string, measured?: number): number {
  return measured ?? NEAR_DUPLICATE.cosine[embedderKind] ?? Math.max(...Object.values(NEAR_DUPLICATE.cosine));
}

/** Both texts' content tokens are the same set: a paraphrase, whatever the hashed vectors say. */
function sameContent(a: string, b: string): boolean {
  return addsNothing(a, b) && addsNothing(b, a);
}

/**
 * How far below the cosine bar a pair may score when only the canonical wording makes their content
 * the same (synonyms move hashed vectors apart): unrelated texts stay below it on both embedders.
 */
const PARAPHRASE_SLACK = 0.4;

/** The restatement test in the canonical wording, for texts whose raw wordings differ in content. */
function paraphrases(next: string, stored: string, cosine: number, bar: number): boolean {
  const [a, b] = [canonicalWording(next), canonicalWording(stored)];
  if (!sameCues(a, b) || !addsNothing(a, b)) return false;
  if (cosine >= bar && lexicalOverlap(a, b) >= NEAR_DUPLICATE.overlap) return true;
  return cosine >= bar - PARAPHRASE_SLACK && sameContent(a, b) && !sameContent(next, stored);
}

/** Without a vector: the stricter token bar, intensifiers left out, and the same other guards. */
function lexicalDuplicate(next: string, stored: string): boolean {
  const overlap = lexicalOverlap(withoutIntensifiers(next), withoutIntensifiers(stored));
  return overlap >= NEAR_DUPLICATE.lexicalOnly && sameCues(next, stored) && addsNothing(next, stored);
}

/**
 * The near-duplicate decision. `embedderKind` picks the cosine bar unless `measured` gives one; an
 * unknown kind uses the strictest one, so a new embedder never merges more eagerly than a measured one.
 * In the canonical wording, the same content tokens lower the bar by PARAPHRASE_SLACK. Texts about
 * different people never merge; a null cosine (no vector) is judged by tokens alone.
 */
export function isNearDuplicate(
  next: string,
  stored: string,
  cosine: number | null,
  embedderKind: string,
  measured?: number,
): boolean {
  if (peopleOf(next) !== peopleOf(stored)) return false;
  if (cosine === null) return lexicalDuplicate(next, stored);
  const bar = nearDuplicateBar(embedderKind, measured);
  if (
    cosine >= bar &&
    lexicalOverlap(next, stored) >= NEAR_DUPLICATE.overlap &&
    sameCues(next, stored) &&
    addsNothing(next, stored)
  )
    return true;
  return paraphrases(next, stored, cosine, bar);
}
