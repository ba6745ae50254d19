/**
 * @module memory/recall/topic-channel
 * Recall's topic channel: a question about an area of the asker's own life ("where do I live?",
 * 「我在哪上班」, "who am I seeing?") brings the statements of that area (text/life-topics.ts) though
 * they share no word with it ("I moved to Munich last month", 「我入职了字节」), the newest first —
 * the current value of a thing a life changes — or, for a question about the past ("where did I live
 * before?"), the oldest first. Only the asker's own life: a question with a relation word ("what
 * does my brother do?") is the relation channel's (relation-resolution.ts), and one in no person
 * (LoCoMo's "What did Caroline paint?") is left to the words. One BM25 statement over the area's
 * words, asked beside the others and only when a question names an area; any other question costs
 * nothing. A statement found here is about the question, so it answers (abstention.ts is not
 * asked to cover its words); the channel never adds anything for a question without an area.
 */
import { commonWord } from "../entities/common-words";
import { relationPhrases } from "../entities/query-relations";
import type { MemoryDeps } from "../service-deps";
import {
  asksOwnLife,
  type LifeTopic,
  statesTopic,
  topicAskText,
  topicSearchTokens,
  topicsAsked,
} from "../text/life-topics";
import { splitSpeaker } from "../text/speaker";
import type { Memory, MemoryStatus, Scope } from "../types";
import { bestCoverage } from "./abstention";
import type { Evidence, FusedCandidate } from "./fuse-scores";
import type { ResolvedQuery } from "./relation-resolution";

/** Candidates one topic search reads, and the most search words it sends (bound parameters stay few). */
export const TOPIC_CANDIDATES = 30;

export interface TopicQuestion {
  topics: LifeTopic[];
  /** The question as asked: its language picks which cues the search sends first. */
  query: string;
}

/** The areas of the asker's own life a question asks about; null when the channel has nothing to do. */
export function topicQuestion(query: string, resolved: ResolvedQuery | null): TopicQuestion | null {
  // About someone else: a relation word (resolved or not), or neither the first person nor "the user".
  if (resolved !== null || relationPhrases(query).length > 0 || !asksOwnLife(query)) return null;
  const topics = topicsAsked(query);
  return topics.length > 0 ? { topics, query } : null;
}

export interface TopicHit {
  memory: Memory;
  /** 1 for the statement the question most likely wants, less for each one after it. */
  weight: number;
}

/** The statements of the asked areas, weighted by when they held; none without a question or on failure. */
export async function topicCandidates(
  deps: MemoryDeps,
  scope: Scope,
  asked: TopicQuestion | null,
  statuses: MemoryStatus[],
  past: boolean,
): Promise<TopicHit[]> {
  if (asked === null) return [];
  const tokens = topicSearchTokens(asked.topics, asked.query);
  const found = await deps.repo
    .searchLexical(scope, tokens, { limit: TOPIC_CANDIDATES, statuses, contextWeight: 0 })
    .catch((err) => {
      deps.log.warn("topic lookup failed; recall goes on without it", {
        error: err instanceof Error ? err.name : "unknown",
      });
      return null;
    });
  if (found === null) return [];
  const hitIds = new Set(found.hits.map((h) => h.id));
  const about = found.rows.filter(
    (m) => hitIds.has(m.id) && !aboutSomeoneElse(m.content) && asked.topics.some((t) => statesTopic(m.content, t)),
  );
  return weighByTime(about, past);
}

/** Openings that name someone else: he, she, they (他, 她), or a capitalised name. */
const THIRD_PERSON = /^(?:he|she|they|his|her|their)\b|^(?:他|她)/i;
const NAME_OPENING = /^[A-Z][a-z]+\b/;
/** Capitalised openings that are not a person's name. */
const NOT_A_NAME = new Set(
  "The This That These Those It There Here Today Tomorrow Yesterday User Home Now Actually Correction Hmm Oh So Also And But Back Every".split(
    " ",
  ),
);

/**
 * A statement about someone else's life: it opens with a relation ("My sister Anna lives in Lisbon",
 * 「我妹妹住在成都」), or with a third person or a name and never speaks of the asker ("Anna moved to
 * Porto"; "Taylor is my partner" is the asker's). Anything else in the asker's memory is theirs, with
 * or without "I": 「更正一下，房租是五千二一个月」 is the asker's rent.
 */
function aboutSomeoneElse(content: string): boolean {
  // A conversation's turn ("林雨桐：我搬到深圳了"): either speaker may be the asker, so only its first person counts.
  const turn = splitSpeaker(content);
  if (turn !== null) return !asksOwnLife(turn.body);
  const text = content.trim();
  const first = relationPhrases(text)[0];
  if (first !== undefined && text.slice(0, first.start).trim().length === 0) return true;
  const name = NAME_OPENING.exec(text)?.[0];
  // An everyday word ("Starting at Klarna next Monday", "Update: …") opens a sentence, not a name.
  const other = THIRD_PERSON.test(text) || (name !== undefined && !NOT_A_NAME.has(name) && !commonWord(name));
  return other && !asksOwnLife(text);
}

/**
 * Which of two statements was told later: the one saved later ("I moved to Munich last month" told
 * after "I rent a place in Lisbon" is the newer news, though the move it names is dated earlier), then
 * within one conversation (saved in the same millisecond) the later id: ids are monotonic ULIDs given
 * in the order of the transcript (composition.ts), so "…scratch that, I go to bed at 11" comes after.
 */
const toldAfter = (a: Memory, b: Memory) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Newest first (oldest first for the past), each one after the first weighing a little less. */
export function weighByTime(memories: Memory[], past: boolean): TopicHit[] {
  const ordered = [...memories].sort((a, b) => (past ? toldAfter(a, b) : toldAfter(b, a)));
  return ordered.map((memory, rank) => ({ memory, weight: 1 / (1 + TOPIC_DECAY * rank) }));
}

/** How fast the weight falls from one statement to the next in time. */
const TOPIC_DECAY = 0.25;

/** Adds each hit's topic evidence (the strongest a memory gets counts). */
export function addTopicEvidence(evidence: Map<string, Evidence>, hits: TopicHit[]): void {
  for (const h of hits) {
    const e = evidence.get(h.memory.id) ?? { cosine: 0, bm25: 0 };
    evidence.set(h.memory.id, { ...e, topic: Math.max(e.topic ?? 0, h.weight) });
  }
}

/**
 * The ranked answer with the statements of the asked area in the order of their topic weight: "I live
 * in Lisbon" matching the question's "live" never ranks above "I moved to Munich" told after it. In the
 * places they hold, the rest keeping its order; or, for a question that is all area words (`first`:
 * 「我现在住在哪个城市」), ahead of the rest, so 「我婆婆大后天来我家住」 sharing 住 with it never ranks
 * above 「我们上个月搬到苏州了」, the statement of where the asker lives.
 */
export function inTopicOrder(ranked: FusedCandidate[], hits: TopicHit[], first = false): FusedCandidate[] {
  if (hits.length < (first ? 1 : 2)) return ranked;
  const weight = new Map(hits.map((h) => [h.memory.id, h.weight]));
  const onTopic = ranked.filter((c) => weight.has(c.memory.id));
  const ordered = [...onTopic].sort((a, b) => weight.get(b.memory.id)! - weight.get(a.memory.id)!);
  if (first) return [...ordered, ...ranked.filter((c) => !weight.has(c.memory.id))];
  let next = 0;
  return ranked.map((c) => (weight.has(c.memory.id) ? ordered[next++] : c));
}

/**
 * Whether the statements of the asked area answer the question: each, read with the words that ask
 * about its area, covers `threshold` of what the question asks (coverage as abstention.ts weighs it).
 * "Where do I live?" is all area; 「我喝奶茶一般点什么口味」 asks a flavour no statement of drinks names,
 * and "which gym do I go to?" a gym: those are left to abstention like any other question.
 */
export function topicAnswers(input: {
  readings: string[][];
  asked: TopicQuestion | null;
  hits: TopicHit[];
  pool: Pick<Memory, "content">[];
  corpusSize: number;
  threshold: number;
}): boolean {
  if (input.asked === null || input.hits.length === 0) return false;
  const askWords = topicAskText(input.asked.topics);
  const candidates = input.hits.map((h) => ({
    memory: { content: `${h.memory.content} ${askWords}` },
    evidence: undefined,
  }));
  return input.readings.some(
    (tokens) =>
      tokens.length === 0 ||
      bestCoverage({ tokens, pool: input.pool, corpusSize: input.corpusSize, candidates }) >= input.threshold,
  );
}

/**
 * The question asks only for the area's value: its words that ask about the area (and "now") alone
 * cover `threshold` of it ("where's home for me right now?", 「我目前的雇主是谁」), unlike a question
 * about something else in that area (「清明节我和女朋友计划去哪里」). Only then is the answer put in the
 * order the statements were told (inTopicOrder); otherwise the words decide the order.
 */
export function asksOnlyTheArea(input: {
  readings: string[][];
  asked: TopicQuestion | null;
  pool: Pick<Memory, "content">[];
  corpusSize: number;
  threshold: number;
}): boolean {
  if (input.asked === null) return false;
  const candidates = [{ memory: { content: topicAskText(input.asked.topics) }, evidence: undefined }];
  return input.readings.some(
    (tokens) =>
      tokens.length > 0 &&
      bestCoverage({ tokens, pool: input.pool, corpusSize: input.corpusSize, candidates }) >= input.threshold,
  );
}
