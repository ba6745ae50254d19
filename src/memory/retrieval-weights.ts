/**
 * @module memory/retrieval-weights
 * Every recall weight and threshold in one documented place (docs/benchmarks.md explains how each
 * was measured). A candidate's score is built as:
 *
 *   lexical = BM25(own tokens + context·contextWeight) / maxIdf(corpus)     ("specific words matched")
 *   relevant ⇔ lexical ≥ lexicalFloor  or  cosine ≥ denseFloor[embedder]
 *   fused    = (1 − dense[embedder]) · lexical / (lexical + lexicalSaturation) + dense[embedder] · cosine
 *   score    = fused × speaker × time × priority × importance × recency boosts
 *
 * Floors decide relevance before any boost, so a boost reorders but never admits noise. Values
 * marked "LoCoMo dev" were tuned through `npm run bench:recall` on locomo-dev.json and checked
 * per conversation and on a Chinese dev set; "unmeasured" ones need Workers AI to tune.
 */
export const RETRIEVAL_WEIGHTS = {
  /** Candidates pulled from each retriever before fusion. */
  denseCandidates: 50,
  lexicalCandidates: 50,
  /**
   * Neighbour context (bulk import): each memory's FTS row also indexes the turns up to `radius`
   * before and after it in the same conversation, counted at `weight` per match in BM25.
   * LoCoMo dev: R@10 61 → 73 (radius 2, weight 0.3); weight 0.4 best, radius 3–4 no better.
   */
  context: { radius: 2, weight: 0.4 },
  /**
   * Share of cosine similarity in the fused score, per embedder. The local hash embedder sees the
   * same words BM25 does, so it only breaks ties (LoCoMo dev R@10: 0 → 76.5, 0.05 → 75.9, 0.1 → 75.0,
   * 0.25 → 74.2); it is kept above 0 so a memory found only through the dense channel (a spelling
   * variant the stemmer misses) still gets a score. bge-m3 carries meaning BM25 cannot (unmeasured: 0.5).
   * An OpenAI-compatible server runs semantic models too (bge-m3 on Ollama is the same model): it
   * takes the Workers AI values until `npm run bench:recall` is run against it (unmeasured).
   */
  dense: { local: 0.05, "workers-ai": 0.5, "openai-compatible": 0.5 } as Record<string, number>,
  /**
   * Relevance floor on cosine for candidates without enough lexical evidence. Hash embeddings of
   * unrelated texts score ~0–0.15; bge-m3 scores unrelated text ~0.3–0.45, hence per-embedder floors.
   */
  denseFloor: { local: 0.3, "workers-ai": 0.55, "openai-compatible": 0.55 } as Record<string, number>,
  /**
   * Relevance floor on lexical evidence: BM25 divided by the idf of a word found in one memory of
   * the corpus, i.e. "how many maximally specific words matched". 0.5 keeps LoCoMo dev R@10 within
   * 0.6 of no floor while questions from another conversation return 3.4 memories on average
   * instead of 9.3 (0.6: 2.0 but −1.4 R@10 and −2 on the Chinese dev set).
   */
  lexicalFloor: 0.5,
  /**
   * Share of the lexical floor a memory needs when the query names its speaker (「王芳的未婚夫是做什么的？」
   * against 王芳's turns): the person is evidence too. Some lexical match is still required.
   * 1 → 0.25: LoCoMo dev R@10 75.9 → 76.4, Chinese dev 84.1 → 90.9; cross-user results 3.72 → 3.84.
   */
  namedSpeakerFloor: 0.25,
  /** Lexical evidence at which the lexical part of the fused score is half of its maximum. */
  lexicalSaturation: 1,
  /** The query names the memory's speaker ("Caroline: …" for "What did Caroline paint?"). LoCoMo dev: +2 MRR. */
  speakerBoost: 1.3,
  /** The memory's event time falls in a window the query names ("in May 2023", 「上个月」). LoCoMo dev: +1 MRR. */
  timeBoost: 1.4,
  /** How far past a named window a memory still gets the time boost (things are told after they happen). */
  timeMargins: { beforeDays: 1, afterDays: 7 },
  /** Priority 1 → ×1.2 … priority 5 → ×0.9. */
  priorityBoost: (priority: number) => 1 + 0.05 * (3 - priority) + (priority === 1 ? 0.05 : 0),
  /** importance 0..1 → ×0.9..1.1 */
  importanceBoost: (importance: number) => 0.9 + 0.2 * importance,
  /** Slow recency decay: half the boost is lost after a year; never below ×0.9. */
  recencyBoost: (ageDays: number) => 0.9 + 0.1 * 0.5 ** (ageDays / 365),
  /**
   * Abstention (recall/abstention.ts): a query is answered only when a relevant candidate's own
   * text holds `coverage` of the query's idf-weighted tokens (`coverageCjk` for a query written
   * mostly in CJK, whose character bigrams include many no statement holds: 「哪本」「店开」), or one
   * is as close in meaning as `cosine[embedder]`. `minWeight` keeps a token every memory holds from
   * weighing nothing. `npm run bench:recall`, foreign questions answered with something / R@10:
   * LoCoMo dev 0 → 71.1% / 0.761, 0.27 → 35.8% / 0.761, 0.32 → 27.3% / 0.760 (no category down
   * more than 0.5), 0.35 → 21.6% / 0.752 (open-domain −4.5); zh-conv-dev (CJK) 0 → 62.8% / 0.894,
   * 0.07 → 53.3% / 0.889, 0.08 → 47.3% / 0.884, 0.15 → 24.6% / 0.850. Local cosine (at 0.32):
   * 0.3 → 36.0% / 0.761, 0.4 → 27.9% / 0.761, 0.5–0.7 → 27.3% / 0.760; no change on Chinese. The
   * bge-m3 value (Workers AI, or an OpenAI-compatible server) is unmeasured.
   */
  abstain: {
    coverage: 0.32,
    coverageCjk: 0.13,
    minWeight: 0.1,
    cosine: { local: 0.4, "workers-ai": 0.7, "openai-compatible": 0.7 } as Record<string, number>,
  },
  /**
   * The entity channel (recall/entity-channel.ts): memories naming an entity the query names
   * (`direct` at most), and a second hop from the `hopFrom` best hits to memories sharing an entity
   * with them (`hop` at most). A candidate with other evidence is boosted by `boost` × its entity
   * evidence (1 direct, `hopWeight` by the hop); one with entity evidence alone scores `only` × it.
   */
  entity: { direct: 30, hop: 10, hopFrom: 3, hopWeight: 0.5, boost: 0.15, only: 0.2 },
  /**
   * The topic channel (recall/topic-channel.ts): a statement of the area of life the question asks
   * about ("where do I live?" → "I moved to Munich"), weighted 1 for the newest and less for older
   * ones. With word evidence too it is boosted by `boost` × that weight; alone it scores `only` × it,
   * above a weak word match, so the current value of a changed fact comes first. A statement of the
   * area answers without covering the question's words when, read with the words that ask about its
   * area, it covers `coverage` (`coverageCjk` for a question mostly in CJK) of the question
   * (recall/topic-channel.ts topicAnswers). The statements are put in the order they were told only
   * when those asking words alone cover `pure` of the question (asksOnlyTheArea), and ahead of every
   * other candidate when they cover `allArea` of it ("where do I live now?": all area words; a question
   * about something in the area, 「4月13日我答应帮同事做什么工作」, covers 0.2–0.3). bench:person dev
   * and the Chinese sets' cross-user check.
   */
  topic: { boost: 0.5, only: 0.5, coverage: 0.5, coverageCjk: 0.35, pure: 0.4, pureCjk: 0.25, allArea: 0.75 },
  /** How many fused candidates the reranker (when configured) sees, and its blend weight (unmeasured). */
  rerankTop: 20,
  rerankWeight: 0.5,
} as const;
