/**
 * @module memory/recall/query-analysis
 * Reads a recall query once: its search tokens (BM25), its plain words (speaker matching) and the
 * time windows it names (date boosts). Pure; recall-memories.ts runs it once per call.
 */
import { readIdioms } from "../text/idioms";
import { stripFraming } from "../text/query-framing";
import { queryWords } from "../text/speaker";
import { type TimeWindow, timeWindows } from "../text/time-expressions";
import { queryTokens } from "../text/tokenize";

export interface QueryAnalysis {
  /** The query as typed. */
  text: string;
  /** The query without its conversational framing (text/query-framing.ts): what is embedded for meaning. */
  plain: string;
  /**
   * Distinct BM25 tokens (stems, CJK bigrams) of the query without its framing, stop words removed,
   * and of what its idioms mean ("on Saturdays and Sundays" also searches "weekend"; text/idioms.ts).
   */
  tokens: string[];
  /** Lower-cased words, unstemmed, for matching speaker names. */
  words: Set<string>;
  /** Dates and periods the query names ("in May 2023", "last week", 「5月2日」). */
  windows: TimeWindow[];
}

export function analyzeQuery(query: string, now: number): QueryAnalysis {
  const plain = stripFraming(query);
  return {
    text: query,
    plain,
    tokens: searchTokens(plain),
    words: queryWords(query),
    windows: timeWindows(query, now),
  };
}

/** The words' tokens, then those of the idioms' meanings that the words lack. */
function searchTokens(text: string): string[] {
  const tokens = queryTokens(text);
  const meant = readIdioms(text);
  return meant === text ? tokens : [...new Set([...tokens, ...queryTokens(meant)])];
}
