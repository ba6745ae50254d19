/**
 * @module memory/recall/recall-memories
 * The recall pipeline: analyse the query (tokens, named speakers, time windows) → dense candidates
 * (index + fresh buffer) and BM25 candidates (own text + neighbour context, rows included) in
 * parallel → relevance floors → hydrate the rest and validate from D1 → boosts → optional rerank →
 * a superseded match answered through its successor (supersede-chain.ts).
 * Counting access is the caller's (MemoryService owns the access recorder): only it knows what is shown.
 */
import type { RecallInput } from "../contracts";
import { embedOrNull } from "../indexing";
import type { LexicalHits, LexicalSearch } from "../ports";
import { RETRIEVAL_WEIGHTS as W } from "../retrieval-weights";
import type { MemoryDeps } from "../service-deps";
import type { Memory, Scope, ScoredId } from "../types";
import { askedTokens, mostlyCjk, shouldAbstain, withoutGrammarChars } from "./abstention";
import { addEntityEvidence, namedCandidates, secondHop } from "./entity-channel";
import { askedFavourite, namesOtherFavourite } from "./favourite-kind";
import {
  denseFloor,
  type Evidence,
  type FuseContext,
  type FusedCandidate,
  fuseScores,
  namesSpeaker,
  relevance,
  wordRelevance,
} from "./fuse-scores";
import { analyzeQuery } from "./query-analysis";
import { passesRecallFilter, recallFilterFor } from "./recall-filters";
import { namesPerson, resolveRelations } from "./relation-resolution";
import { asksAboutPast, followSupersedeChain } from "./supersede-chain";
import {
  addTopicEvidence,
  asksOnlyTheArea,
  inTopicOrder,
  topicAnswers,
  topicCandidates,
  topicQuestion,
} from "./topic-channel";
import { namesRelations, unresolvedRelations } from "./unresolved-relation";

export interface RecallOutcome {
  results: FusedCandidate[];
  /** True when the query embedding failed and the answer comes from BM25 alone. */
  lexicalOnly: boolean;
  /** How many memories passed the relevance floor before the limit cut. */
  totalRelevant: number;
}

export async function recallMemories(
  deps: MemoryDeps,
  scope: Scope,
  input: RecallInput,
  limit: number,
): Promise<RecallOutcome> {
  const now = deps.clock.now();
  // Superseded memories are ranked too: a match on one answers through what replaced it (supersede-chain.ts).
  const statuses: Memory["status"][] = ["active", "superseded"];
  // "my best friend" read as "my best friend Sarah" (relation-resolution.ts): one statement, only with a relation word.
  const resolved = await resolveRelations(deps, scope, input.query);
  const text = resolved?.expanded ?? input.query;
  const query = analyzeQuery(text, now);
  const lexicalOptions = { limit: W.lexicalCandidates, statuses, contextWeight: W.context.weight };
  // "Where do I live?" finds "I moved to Munich" by its area of life (topic-channel.ts): one statement, only with an area.
  const asked = topicQuestion(input.query, resolved);
  const past = asksAboutPast(query, now);
  const [[dense, lexical], named, topicFound] = await Promise.all([
    // The meaning is embedded without the framing around it ("What did I tell you about my mentor?"
    // is about the mentor): with a few memories BM25's idf is near 0 and the dense floor decides alone.
    candidates(deps, scope, query.plain, query.tokens, lexicalOptions, now),
    namedCandidates(deps, scope, input.query),
    topicCandidates(deps, scope, asked, statuses, past),
  ]);
  const evidence = new Map<string, Evidence>();
  for (const hit of dense ?? []) evidence.set(hit.id, { cosine: hit.score, bm25: 0 });
  for (const hit of lexical.hits) evidence.set(hit.id, { cosine: evidence.get(hit.id)?.cosine ?? 0, bm25: hit.score });
  addEntityEvidence(evidence, named, 1);
  // Coverage is judged on the query as asked and, with a resolved relation word, with the name in its place
  // (asking words left out: askedTokens).
  const dated = query.windows.length > 0;
  const readings = resolved
    ? [input.query, resolved.replaced].map((q) => askedTokens(q, dated))
    : [askedTokens(input.query, dated)];
  const hitIds = new Set(lexical.hits.map((h) => h.id));
  const pool = lexical.rows.filter((m) => hitIds.has(m.id));
  // A question for the area's value takes its statements whatever their words, in the order told; one about
  // something in the area (「我在哪家银行上班」) only boosts those its words or meaning found (topic-channel.ts).
  const onlyArea = asksOnlyTheArea({
    readings,
    asked,
    pool,
    corpusSize: lexical.corpusSize,
    threshold: mostlyCjk(text) ? W.topic.pureCjk : W.topic.pure,
  });
  const floor = denseFloor(deps.settings.embedderKind, deps.settings.thresholds?.denseFloor);
  // A question about the past of an area (「换工作之前我在哪里上班」) asks for its replaced statements, whatever their words.
  const topical = onlyArea
    ? topicFound
    : topicFound.filter(
        (h) => foundByItself(evidence.get(h.memory.id), floor) || (past && h.memory.status === "superseded"),
      );
  addTopicEvidence(evidence, topical);
  const aboutTopic = new Set(topical.map((h) => h.memory.id));
  // A memory naming the person a relation word stands for matches that word (relation-resolution.ts).
  const aboutPerson = new Set(
    resolved ? lexical.rows.filter((m) => resolved.names.some((n) => namesPerson(m.content, n))).map((m) => m.id) : [],
  );
  addEntityEvidence(
    evidence,
    [...aboutPerson].map((memoryId) => ({ memoryId, entityId: "" })),
    1,
  );
  const ctx: FuseContext = {
    embedderKind: deps.settings.embedderKind,
    denseFloor: deps.settings.thresholds?.denseFloor,
    corpusSize: lexical.corpusSize,
    now,
    query,
  };
  const filter = recallFilterFor(scope, input, now);
  const ranks = { ...filter, includeSuperseded: true };
  const known = [...lexical.rows, ...topical.map((h) => h.memory)];
  const rows = (await hydrate(deps, scope, evidence, known, ctx)).filter((m) => passesRecallFilter(m, ranks));
  const ranked = await deps.timer.time("rank", () => rerank(deps, text, fuseScores(rows, evidence, ctx)));
  // Decided on words and meaning alone: entity evidence adds candidates, never an answer. A statement
  // of the area of life asked about is about the question whatever its words (topic-channel.ts).
  // "my uncle", never told of: only a memory naming an uncle is about him (unresolved-relation.ts).
  const unresolved = unresolvedRelations(input.query, new Set(resolved?.keys ?? []), lexical.rows);
  // "my favourite restaurant", never told: "Winter is my favourite season" is not about it (favourite-kind.ts).
  const favourite = askedFavourite(input.query);
  const byWords = ranked.filter(
    (c) =>
      aboutPerson.has(c.memory.id) ||
      aboutTopic.has(c.memory.id) ||
      (wordRelevance(evidence.get(c.memory.id)!, ctx, namesSpeaker(c.memory, query)) !== null &&
        (unresolved.length === 0 || namesRelations(c.memory.content, unresolved)) &&
        (favourite === null || !namesOtherFavourite(c.memory.content, favourite, input.query))),
  );
  const answering = new Set(byWords.map((c) => c.memory.id));
  const onTopic = topicAnswers({
    readings,
    asked,
    hits: topical.filter((h) => answering.has(h.memory.id)),
    pool,
    corpusSize: lexical.corpusSize,
    threshold: mostlyCjk(text) ? W.topic.coverageCjk : W.topic.coverage,
  });
  if (
    byWords.length === 0 ||
    (!onTopic &&
      readings.every((tokens) =>
        abstains(deps, text, tokens, { pool, corpusSize: lexical.corpusSize }, byWords, evidence),
      ))
  )
    return { results: [], totalRelevant: 0, lexicalOnly: dense === null };
  const hopped = await withSecondHop(deps, scope, text, ranked, evidence, ctx, filter);
  // A question that is all area words ("where do I live now?") takes the area's statements first.
  const allArea =
    onlyArea && asksOnlyTheArea({ readings, asked, pool, corpusSize: lexical.corpusSize, threshold: W.topic.allArea });
  const ordered = onlyArea ? inTopicOrder(hopped, topical, allArea) : hopped;
  const fused = await followSupersedeChain(deps, scope, ordered, { query, filter, now });
  return { results: fused.slice(0, limit), totalRelevant: fused.length, lexicalOnly: dense === null };
}

/**
 * The second hop from the best hits: memories sharing an entity with them join (or are boosted)
 * with the hop's weaker entity evidence, fused like every other candidate.
 */
async function withSecondHop(
  deps: MemoryDeps,
  scope: Scope,
  text: string,
  ranked: FusedCandidate[],
  evidence: Map<string, Evidence>,
  ctx: FuseContext,
  filter: ReturnType<typeof recallFilterFor>,
): Promise<FusedCandidate[]> {
  const hops = await secondHop(
    deps,
    scope,
    ranked.map((c) => c.memory.id),
  );
  if (hops.length === 0) return ranked;
  addEntityEvidence(evidence, hops, W.entity.hopWeight);
  const known = new Map(ranked.map((c) => [c.memory.id, c.memory]));
  const missing = [...new Set(hops.map((h) => h.memoryId))].filter((id) => !known.has(id));
  const fetched = missing.length > 0 ? await deps.repo.getMany(scope, missing) : [];
  const rows = [...known.values(), ...fetched.filter((m) => m.status === "active" && passesRecallFilter(m, filter))];
  return deps.timer.time("rank", () => rerank(deps, text, fuseScores(rows, evidence, ctx)));
}

/** A candidate the words or the meaning found on their own (BM25, or a cosine past the dense floor). */
function foundByItself(e: Evidence | undefined, floor: number): boolean {
  return e !== undefined && (e.bm25 > 0 || e.cosine >= floor);
}

/** No relevant candidate is about the query (recall/abstention.ts): the answer is "nothing remembered". */
function abstains(
  deps: MemoryDeps,
  text: string,
  tokens: string[],
  lexical: { pool: Memory[]; corpusSize: number },
  ranked: FusedCandidate[],
  evidence: Map<string, Evidence>,
): boolean {
  if (ranked.length === 0) return false;
  const cjk = mostlyCjk(text);
  return shouldAbstain({
    tokens: cjk ? withoutGrammarChars(tokens) : tokens,
    pool: lexical.pool,
    corpusSize: lexical.corpusSize,
    candidates: ranked.map((c) => ({ memory: c.memory, evidence: evidence.get(c.memory.id) })),
    cosineFloor: W.abstain.cosine[deps.settings.embedderKind] ?? 1,
    threshold: cjk
      ? (deps.settings.abstain?.coverageCjk ?? W.abstain.coverageCjk)
      : (deps.settings.abstain?.coverage ?? W.abstain.coverage),
  });
}

/**
 * Dense and BM25 candidates. A remote index (Vectorize) is asked beside BM25. The local index
 * answers inside this object in a few milliseconds, so it goes first, and the rows of its
 * candidates that can clear the dense floor alone ride in BM25's D1 round trip: recall then costs
 * one round trip instead of two (docs/benchmarks.md, "Recall at 100k").
 */
async function candidates(
  deps: MemoryDeps,
  scope: Scope,
  text: string,
  tokens: string[],
  options: LexicalSearch,
  now: number,
): Promise<[ScoredId[] | null, LexicalHits]> {
  if (deps.index.kind !== "local")
    return Promise.all([denseCandidates(deps, scope, text, now), deps.repo.searchLexical(scope, tokens, options)]);
  const dense = await denseCandidates(deps, scope, text, now);
  const floor = denseFloor(deps.settings.embedderKind, deps.settings.thresholds?.denseFloor);
  const rowsOf = (dense ?? []).filter((h) => h.score >= floor).map((h) => h.id);
  return [dense, await deps.repo.searchLexical(scope, tokens, { ...options, rowsOf })];
}

/**
 * Rows for the candidates that clear a relevance floor (the floors need only the evidence, so the
 * rest are never read). Lexical hits arrive with their rows, and so do the dense candidates asked
 * for with them (`rowsOf`); only dense-only candidates still unknown are fetched.
 */
async function hydrate(
  deps: MemoryDeps,
  scope: Scope,
  evidence: Map<string, Evidence>,
  lexicalRows: Memory[],
  ctx: FuseContext,
): Promise<Memory[]> {
  const known = new Map(lexicalRows.map((m) => [m.id, m]));
  const wanted = [...evidence]
    .filter(([id, e]) => {
      const row = known.get(id);
      return relevance(e, ctx, row !== undefined && namesSpeaker(row, ctx.query)) !== null;
    })
    .map(([id]) => id);
  // A row asked for with BM25 and not found (its vector outlived it) is asked for once more: rare.
  const missing = wanted.filter((id) => !known.has(id));
  const fetched = missing.length > 0 ? await deps.repo.getMany(scope, missing) : [];
  return [...wanted.flatMap((id) => known.get(id) ?? []), ...fetched];
}

/** Dense candidates, or null when the query cannot be embedded (recall then answers from BM25 alone). */
async function denseCandidates(deps: MemoryDeps, scope: Scope, query: string, now: number): Promise<ScoredId[] | null> {
  const vector = await embedQuery(deps, query);
  if (!vector) return null;
  return deps.timer.time("index", async () => {
    const fromIndex = await deps.index.query(scope, vector, W.denseCandidates).catch((err) => {
      deps.log.warn("vector query failed; recall falls back to lexical and fresh buffer", { error: String(err) });
      return [] as ScoredId[];
    });
    return withFreshBuffer(deps, vector, fromIndex, now);
  });
}

function withFreshBuffer(deps: MemoryDeps, vector: Float32Array, fromIndex: ScoredId[], now: number): ScoredId[] {
  // The buffer also holds vectors whose upsert failed (any index kind) until repair re-indexes them.
  if (!deps.index.eventual && deps.fresh.size === 0) return fromIndex;
  deps.fresh.remove(fromIndex.map((h) => h.id));
  const best = new Map<string, number>();
  for (const h of [...fromIndex, ...deps.fresh.score(vector, W.denseCandidates, now)])
    best.set(h.id, Math.max(best.get(h.id) ?? -1, h.score));
  return [...best].map(([id, score]) => ({ id, score }));
}

async function embedQuery(deps: MemoryDeps, query: string): Promise<Float32Array | null> {
  // The log line names the model and the error's kind only: a provider message may quote its input.
  const vectors = await embedOrNull(deps, [query], "recall answers from BM25 alone");
  return vectors?.[0] ?? null;
}

async function rerank(deps: MemoryDeps, query: string, fused: FusedCandidate[]): Promise<FusedCandidate[]> {
  if (deps.reranker.kind === "none" || fused.length < 2) return fused;
  const head = fused.slice(0, W.rerankTop);
  try {
    const scores = await deps.reranker.rerank(
      query,
      head.map((c) => c.memory.content),
    );
    const top = Math.max(...head.map((c) => c.score));
    const blended = head.map((c, i) => ({
      ...c,
      score: (1 - W.rerankWeight) * (c.score / top) + W.rerankWeight * scores[i],
    }));
    return [...blended.sort((a, b) => b.score - a.score), ...fused.slice(W.rerankTop)];
  } catch (err) {
    deps.log.warn("rerank failed; using fused order", { error: String(err) });
    return fused;
  }
}
