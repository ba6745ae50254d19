/**
 * @module scripts/lib/bench-report
 * What the recall benchmark prints and writes: the metrics table (overall and per category), ingest
 * and latency lines, the cross-user check, the scale table, and the --json document.
 */
import { type BenchFormat, LOCOMO_CATEGORIES } from "./bench-data.ts";
import type { Summary } from "./bench-metrics.ts";
import type { ProgressiveSummary } from "./bench-progressive.ts";
import type { Reach, ReachTotals } from "./bench-reach.ts";
import type { CrossUserCheck } from "./bench-run.ts";
import { describeServer, type ServerSummary } from "./bench-server-figures.ts";

const serverJson = (s: ServerSummary) => ({
  p50_ms: s.p50,
  p95_ms: s.p95,
  d1_sequential_mean: s.d1SequentialMean,
  d1_sequential_max: s.d1SequentialMax,
  d1_queries_mean: s.d1QueriesMean,
  d1_rows_read_mean: s.d1RowsReadMean,
  d1_rows_read_max: s.d1RowsReadMax,
  d1_rows_written_mean: s.d1RowsWrittenMean,
});

export interface DatasetReport {
  dataset: string;
  format: BenchFormat;
  users: number;
  memories: number;
  skippedQuestions: number;
  overall: Summary;
  byCategory: Record<string, Summary>;
  /** Plain BM25 (character bigrams for CJK) over the same questions: the baseline. */
  baseline: { overall: Summary; byCategory: Record<string, Summary> };
  ingestMs: number;
  latency: { p50: number; p95: number; coldMax: number };
  server: ServerSummary;
  cross: CrossUserCheck | null;
  /** Mean estimated tokens of the full search's first five results as rendered (header + 5 lines). */
  tokens5Mean: number;
  /** Share of the answered questions whose answer that text holds (null: the file has no answers). */
  answerRate5: number | null;
  progressive: ProgressiveSummary | null;
  /** The word-reach bound of the run (bench-reach.ts). */
  reach: ReachTotals;
}

export interface ScaleRow {
  memories: number;
  ingestMs: number;
  queries: number;
  recall10: number;
  p50: number;
  p95: number;
  server: ServerSummary;
  residentBytes: number | null;
  workerdRss: number[];
}

const f3 = (x: number) => x.toFixed(3);
const ms = (x: number) => `${x.toFixed(1)} ms`;
const rowCount = (n: number | null) => (n === null ? "n/a" : n.toFixed(0));
const mb = (bytes: number | null) => (bytes === null ? "n/a" : `${(bytes / 1048576).toFixed(1)} MB`);

function categoryLabel(format: BenchFormat, category: string): string {
  return format === "locomo" && LOCOMO_CATEGORIES[category] ? `${category} ${LOCOMO_CATEGORIES[category]}` : category;
}

export function printDataset(r: DatasetReport): void {
  const row = (label: string, s: Summary) =>
    `${label.padEnd(16)}${f3(s.recall5).padStart(8)}${f3(s.recall10).padStart(8)}${f3(s.mrr10).padStart(9)}${f3(s.ndcg10).padStart(9)}${String(s.queries).padStart(9)}`;
  const lines = [
    "",
    `Recall benchmark — ${r.dataset} (${r.format} format): ${r.users} users, ${r.memories} memories, ${r.overall.queries} queries (${r.skippedQuestions} skipped: adversarial or no evidence)`,
    `${"".padEnd(16)}${"R@5".padStart(8)}${"R@10".padStart(8)}${"MRR@10".padStart(9)}${"nDCG@10".padStart(9)}${"queries".padStart(9)}`,
    row("overall", r.overall),
    ...Object.entries(r.byCategory).map(([c, s]) => row(categoryLabel(r.format, c), s)),
    row("BM25 baseline", r.baseline.overall),
    ...Object.entries(r.baseline.byCategory).map(([c, s]) => row(`↳ ${categoryLabel(r.format, c)}`, s)),
    "BM25 baseline: plain Okapi BM25 (k1 1.2, b 0.75) per user, words without English stop words, CJK as character bigrams",
    `Ingest: ${r.memories} memories in ${(r.ingestMs / 1000).toFixed(1)} s (${Math.round(r.memories / (r.ingestMs / 1000))}/s) through POST /v1/import`,
    `Recall latency through /mcp (recall_memory, limit 10): p50 ${ms(r.latency.p50)}, p95 ${ms(r.latency.p95)}; first call per user (cold Durable Object) up to ${ms(r.latency.coldMax)}, not counted`,
    `Server-Timing of the same calls: ${describeServer(r.server)}`,
  ];
  lines.push(...reachLines(r));
  if (r.progressive) lines.push(...progressiveLines(r));
  if (r.cross) {
    lines.push(
      `Cross-user check: ${r.cross.queries} questions asked of the wrong user — ${(100 * r.cross.anyResultRate).toFixed(1)}% returned anything, ${r.cross.meanResults.toFixed(2)} memories on average (limit 10), all ${r.cross.checked} of them the asked user's own`,
    );
  }
  console.log(lines.join("\n"));
}

function reachLines(r: DatasetReport): string[] {
  const row = (label: string, x: Reach) =>
    `${label.padEnd(16)}${f3(x.recall10).padStart(8)}${f3(x.wordBound10).padStart(12)}${String(x.missedSharing).padStart(8)}${String(x.missedNeighbours).padStart(12)}${String(x.missedNone).padStart(8)}`;
  return [
    "Word reach — evidence outside the first 10 that shares a word with its question (BM25's tokens, speakers' names left out) in its own text or only in its neighbour context, and R@10 if all of it were found too:",
    `${"".padEnd(16)}${"R@10".padStart(8)}${"word bound".padStart(12)}${"own".padStart(8)}${"neighbours".padStart(12)}${"none".padStart(8)}`,
    row("overall", r.reach.overall),
    ...Object.entries(r.reach.byCategory).map(([c, x]) => row(categoryLabel(r.format, c), x)),
  ];
}

function progressiveLines(r: DatasetReport): string[] {
  const p = r.progressive!;
  return [
    `First call of a fresh session (recall_memory without limit, progressive stage 1), ${p.queries} questions:`,
    `  evidence received ${f3(p.hitRate)} (all of it ${f3(p.allRate)}, any ${f3(p.anyRate)}) — beside full-search R@5 ${f3(r.overall.recall5)}, R@10 ${f3(r.overall.recall10)}`,
    `  ${p.memoriesMean.toFixed(2)} memories, ${p.tokensMean.toFixed(1)} tokens on average — beside ${r.tokens5Mean.toFixed(1)} tokens for the full search's first 5 (tokens ≈ CJK characters + other characters / 4, of the text rendering)`,
    `  the whole result as received (content + structuredContent as JSON): ${p.wireTokensMean.toFixed(1)} tokens`,
    p.answerRate === null || r.answerRate5 === null
      ? "  answer in the text: n/a (the file gives no answers)"
      : `  answer in the text (normalised; a short answer's content words): ${f3(p.answerRate)} of ${p.answered} answered questions — beside ${f3(r.answerRate5)} for the full search's first 5`,
    ...(p.notStage1 > 0 ? [`  WARNING: ${p.notStage1} calls were not answered as stage 1`] : []),
  ];
}

const reachJson = (x: Reach) => ({
  recall_at_10: x.recall10,
  word_bound_at_10: x.wordBound10,
  missed_sharing_a_word: x.missedSharing,
  missed_sharing_through_neighbours: x.missedNeighbours,
  missed_sharing_none: x.missedNone,
  queries: x.questions,
});

export function datasetJson(r: DatasetReport): Record<string, unknown> {
  const metrics = (s: Summary) => ({
    recall_at_5: s.recall5,
    recall_at_10: s.recall10,
    mrr_at_10: s.mrr10,
    ndcg_at_10: s.ndcg10,
    queries: s.queries,
  });
  return {
    ...metrics(r.overall),
    latency_ms: { p50: r.latency.p50, p95: r.latency.p95 },
    server: serverJson(r.server),
    bm25_baseline: {
      ...metrics(r.baseline.overall),
      by_category: Object.fromEntries(Object.entries(r.baseline.byCategory).map(([c, s]) => [c, metrics(s)])),
    },
    by_category: Object.fromEntries(
      Object.entries(r.byCategory).map(([c, s]) => [
        c,
        { name: (r.format === "locomo" && LOCOMO_CATEGORIES[c]) || c, ...metrics(s) },
      ]),
    ),
    word_reach: {
      ...reachJson(r.reach.overall),
      by_category: Object.fromEntries(Object.entries(r.reach.byCategory).map(([c, x]) => [c, reachJson(x)])),
    },
    dataset: r.dataset,
    format: r.format,
    users: r.users,
    memories: r.memories,
    skipped_questions: r.skippedQuestions,
    ingest_ms: r.ingestMs,
    cold_first_call_ms_max: r.latency.coldMax,
    full_search_tokens_top5_mean: r.tokens5Mean,
    full_search_answer_rate_top5: r.answerRate5,
    ...(r.progressive
      ? {
          progressive: {
            hit_rate: r.progressive.hitRate,
            tokens_mean: r.progressive.tokensMean,
            wire_tokens_mean: r.progressive.wireTokensMean,
            all_evidence_rate: r.progressive.allRate,
            any_evidence_rate: r.progressive.anyRate,
            memories_mean: r.progressive.memoriesMean,
            queries: r.progressive.queries,
            answer_rate: r.progressive.answerRate,
            answered_queries: r.progressive.answered,
          },
        }
      : {}),
    cross_user: r.cross
      ? {
          queries: r.cross.queries,
          any_result_rate: r.cross.anyResultRate,
          mean_results: r.cross.meanResults,
          returned_checked_own: r.cross.checked,
        }
      : null,
  };
}

export function printScale(rows: ScaleRow[]): void {
  const lines = [
    "",
    "Scale benchmark — synthetic memories for one user (local adapters, recall_memory over /mcp, limit 10)",
    `${"memories".padStart(9)}${"ingest".padStart(10)}${"queries".padStart(9)}${"R@10".padStart(8)}${"p50".padStart(10)}${"p95".padStart(10)}${"srv p50".padStart(10)}${"srv p95".padStart(10)}${"D1 seq".padStart(8)}${"D1 rows".padStart(9)}${"index".padStart(11)}  workerd RSS`,
    ...rows.map(
      (r) =>
        `${String(r.memories).padStart(9)}${`${(r.ingestMs / 1000).toFixed(1)} s`.padStart(10)}${String(r.queries).padStart(9)}${f3(r.recall10).padStart(8)}${ms(r.p50).padStart(10)}${ms(r.p95).padStart(10)}${ms(r.server.p50).padStart(10)}${ms(r.server.p95).padStart(10)}${r.server.d1SequentialMean.toFixed(1).padStart(8)}${rowCount(r.server.d1RowsReadMean).padStart(9)}${mb(r.residentBytes).padStart(11)}  ${r.workerdRss.map((b) => mb(b)).join(" + ")}`,
    ),
    "p50/p95 = client round trip; srv = the server's Server-Timing total; D1 seq = sequential D1 round trips per recall (mean); D1 rows = rows D1 read per recall (mean, its meta.rows_read)",
    "index = resident bytes of the user's local vector index (memory_stats index.resident_bytes); workerd RSS = the whole server process",
  ];
  console.log(lines.join("\n"));
}

export function scaleJson(rows: ScaleRow[]): Record<string, unknown> {
  return {
    synthetic: rows.map((r) => ({
      memories: r.memories,
      ingest_ms: r.ingestMs,
      queries: r.queries,
      recall_at_10: r.recall10,
      latency_ms: { p50: r.p50, p95: r.p95 },
      server: serverJson(r.server),
      index_resident_bytes: r.residentBytes,
      workerd_rss_bytes: r.workerdRss,
    })),
  };
}
