/**
 * @module memory/text/speaker
 * Conversation turns stored as memories read "Caroline: I went to a support group" or "林晓：我入职了".
 * This module splits such a turn into speaker and body, labels a fact with the person who said it,
 * and tells whether a query names the speaker. Pure; used by bulk import (neighbour context carries bodies, not names) and by recall
 * (a turn spoken by the person a question is about is more likely to answer it).
 */

export interface SpeakerTurn {
  speaker: string;
  body: string;
}

// A speaker label is a short name followed by a colon: one to three capitalised Latin words
// ("Caroline", "Mary Ann"), one lower-case handle ("user", "assistant"), or one to six Han
// characters ("林晓", "同事阿杰"). An ASCII colon must be followed by a space, so "https://…" and
// "10:30" are not turns; the full-width colon of Chinese text needs none.
const LATIN_NAME = String.raw`\p{Lu}[\p{L}\p{M}\p{N}'’.\-]{0,29}(?: \p{Lu}[\p{L}\p{M}\p{N}'’.\-]{0,29}){0,2}|\p{Ll}[\p{L}\p{N}_\-]{1,19}`;
const HAN_NAME = String.raw`\p{Script=Han}{1,6}`;
/** A speaker label (the one home of the rule): capitalised Latin words, a lower-case handle, or Han characters. */
export const SPEAKER_NAME = String.raw`${LATIN_NAME}|${HAN_NAME}`;
const TURN = new RegExp(String.raw`^\s*(?:(${LATIN_NAME})\s*:\s+|(${LATIN_NAME}|${HAN_NAME})\s*：\s*)`, "u");

/** The speaker label and the rest of the text, or null when the text is not a "Name: …" turn. */
export function splitSpeaker(text: string): SpeakerTurn | null {
  const m = TURN.exec(text);
  if (!m) return null;
  const body = text.slice(m[0].length).trim();
  if (body.length === 0) return null;
  return { speaker: (m[1] ?? m[2]).trim(), body };
}

/** The text without its speaker label (the whole text when it has none). */
export function turnBody(text: string): string {
  return splitSpeaker(text)?.body ?? text;
}

const HAN = /\p{Script=Han}/u;
const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased words of a query, for speaker matching (no stemming: names are not English words). */
export function queryWords(query: string): Set<string> {
  return new Set(query.normalize("NFKC").toLowerCase().match(WORD) ?? []);
}

/**
 * True when the query names the speaker: the first word of a Latin name ("Caroline" of "Caroline
 * Smith") is one of the query's words; a Han name appears anywhere in the query (Chinese has no
 * spaces to split on).
 */
export function queryNamesSpeaker(speaker: string, query: string, words: Set<string>): boolean {
  if (HAN.test(speaker)) return query.includes(speaker);
  const first = speaker.normalize("NFKC").toLowerCase().split(" ")[0];
  return words.has(first);
}

/**
 * The fact as a turn of its speaker ("Caroline: I researched adoption agencies"), so a question that
 * names the person ("What did Caroline research?") finds and is answered by what they said in the
 * first person. Unchanged when the text already names them or already is a turn, or when the name
 * is not a label the turn rule reads back.
 */
export function labelWithSpeaker(speaker: string, text: string): string {
  if (splitSpeaker(text) !== null || queryNamesSpeaker(speaker, text, queryWords(text))) return text;
  const turn = HAN.test(speaker) ? `${speaker}：${text}` : `${speaker}: ${text}`;
  return splitSpeaker(turn)?.speaker === speaker ? turn : text;
}
