/**
 * @module memory/recall/fuse-scores
 * Weighted fusion of dense and lexical evidence: relevance floors first, then the speaker, time,
 * priority, importance and recency boosts. Pure; every weight lives in memory/retrieval-weights.ts,
 * whose header gives the formula.
 */
import { RETRIEVAL_WEIGHTS as W } from "../retrieval-weights";
import { queryNamesSpeaker, splitSpeaker } from "../text/speaker";
import { windowContains } from "../text/time-window";
import type { Memory } from "../types";
import type { QueryAnalysis } from "./query-analysis";

export interface Evidence {
  cosine: number;
  bm25: number;
  /** The entity channel (entity-channel.ts): 1 when it names an entity the query names, less by a second hop. */
  entity?: number;
  /** The topic channel (topic-channel.ts): 1 for the statement of the asked area most likely wanted, less for the others. */
  topic?: number;
}

export interface FusedCandidate {
  memory: Memory;
  score: number;
  /** The query matched an older fact this memory replaced (recall/supersede-chain.ts): that fact. */
  update?: MemoryUpdate;
}

/** An older fact a recalled memory replaced through the supersede link. */
export interface MemoryUpdate {
  replacedId: string;
  replacedContent: string;
  /** When the replacing memory was saved (epoch ms). */
  replacedAt: number;
}

export interface FuseContext {
  /** Which embedder produced the cosines: picks the dense weight and floor. */
  embedderKind: string;
  /** The dense relevance floor measured for this deployment (DENSE_RELEVANCE_FLOOR); unset: the embedder's default. */
  denseFloor?: number;
  /** Rows in the full-text index: BM25's idf scale (see maxIdf). */
  corpusSize: number;
  now: number;
  /** The analysed query; without it no speaker or time boosts apply. */
  query?: QueryAnalysis;
}

/**
 * The idf FTS5's bm25() gives a word found in one row of `corpusSize`: the most a single matched
 * word can weigh. Dividing BM25 by it makes lexical evidence comparable across corpus sizes.
 */
export function maxIdf(corpusSize: number): number {
  return Math.max(Math.log((Math.max(corpusSize, 2) + 0.5) / 1.5), 1e-6);
}

/** The query names the person who spoke the memory ("Caroline: …" for "What did Caroline paint?"). */
export function namesSpeaker(memory: Pick<Memory, "content">, query: QueryAnalysis | undefined): boolean {
  const turn = query ? splitSpeaker(memory.content) : null;
  return turn !== null && queryNamesSpeaker(turn.speaker, query!.text, query!.words);
}

/** The cosine a candidate without enough lexical evidence needs: the measured floor when set, else the embedder's default. */
export function denseFloor(embedderKind: string, measured?: number): number {
  return measured ?? W.denseFloor[embedderKind] ?? 0.3;
}

/**
 * Fused relevance before boosts, or null when neither channel clears its floor. A memory spoken by
 * the person the query names needs less lexical evidence (W.namedSpeakerFloor), but still some.
 */
export function relevance(e: Evidence, ctx: FuseContext, spokenByNamed = false): number | null {
  const base = wordRelevance(e, ctx, spokenByNamed);
  const entity = e.entity ?? 0;
  const topic = e.topic ?? 0;
  if (base === null) {
    const alone = Math.max(W.entity.only * entity, W.topic.only * topic);
    return alone > 0 ? alone : null;
  }
  return base * (1 + W.entity.boost * entity + W.topic.boost * topic);
}

/** Relevance from the words and the meaning alone (dense and BM25), or null below both floors. */
export function wordRelevance(e: Evidence, ctx: FuseContext, spokenByNamed = false): number | null {
  const lexical = e.bm25 / maxIdf(ctx.corpusSize);
  const lexicalFloor = spokenByNamed ? W.lexicalFloor * W.namedSpeakerFloor : W.lexicalFloor;
  if (!(lexical > 0 && lexical >= lexicalFloor) && e.cosine < denseFloor(ctx.embedderKind, ctx.denseFloor)) return null;
  const dense = W.dense[ctx.embedderKind] ?? 0.1;
  return (1 - dense) * (lexical / (lexical + W.lexicalSaturation)) + dense * Math.max(0, e.cosine);
}

/** Query-dependent boosts: the query names the memory's speaker, or a time the memory falls in. */
export function queryBoost(memory: Memory, query: QueryAnalysis | undefined): number {
  if (!query) return 1;
  let boost = 1;
  if (namesSpeaker(memory, query)) boost *= W.speakerBoost;
  const when = memory.eventTime ?? memory.createdAt;
  if (query.windows.some((w) => windowContains(w, when, W.timeMargins))) boost *= W.timeBoost;
  return boost;
}

/** Query-independent boosts: priority, importance, and a slow recency decay. */
export function memoryBoost(memory: Memory, now: number): number {
  const ageDays = Math.max(0, now - (memory.eventTime ?? memory.createdAt)) / 86_400_000;
  return W.priorityBoost(memory.priority) * W.importanceBoost(memory.importance) * W.recencyBoost(ageDays);
}

/** Fuses evidence for hydrated memories, best first; drops those below the relevance floors. */
export function fuseScores(rows: Memory[], evidence: Map<string, Evidence>, ctx: FuseContext): FusedCandidate[] {
  const out: FusedCandidate[] = [];
  for (const memory of rows) {
    const e = evidence.get(memory.id);
    const fused = e ? relevance(e, ctx, namesSpeaker(memory, ctx.query)) : null;
    if (fused === null) continue;
    out.push({ memory, score: fused * queryBoost(memory, ctx.query) * memoryBoost(memory, ctx.now) });
  }
  return out.sort((a, b) => b.score - a.score);
}
