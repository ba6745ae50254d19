/**
 * @module scripts/lib/person-score
 * How bench:person scores what recall returned, splits the lives into dev and test, and sums up.
 * A question succeeds when (K = HIT_K, ranks 1-based over what recall_memory returned):
 *   single-fact, preference, two-hop  every expected fact has a memory ranked ≤ K;
 *   knowledge-update                  the same, and no stale (replaced) fact ranks at or above the
 *                                     worst-ranked expected one (one memory holding both fails);
 *   temporal                          the same as single-fact, and for a question with a date, one
 *                                     of the expected fact's memories within the first K has an
 *                                     event_time on that day (± tolerance_days);
 *   abstention                        recall returned nothing at all.
 * A fact's memories are those the write returned for it (person-run.ts; outcomeFacts for a transcript);
 * its rank is the best of them.
 * The split: lives of each language ordered by a seeded hash of their id, the first half dev.
 * Pure (no I/O).
 */
import { CATEGORIES, type Category, LANGS, type Lang, type Life, type Question, type Turn } from "./person-data.ts";

/** A question succeeds only with its answer among the first HIT_K memories. */
export const HIT_K = 5;

export type Split = "dev" | "test";

/** FNV-1a over the seed and a life's id: a split that never changes with the order of the file. */
function hash(seed: number, text: string): number {
  let h = 0x811c9dc5 ^ seed;
  for (const ch of text) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The lives of `split`: per language, ordered by the seeded hash of their id, dev the first half (rounded up). */
export function splitLives(lives: Life[], seed: number, split: Split): Life[] {
  const chosen = new Set<string>();
  for (const lang of LANGS) {
    const ordered = lives
      .filter((l) => l.lang === lang)
      .sort((a, b) => hash(seed, a.id) - hash(seed, b.id) || (a.id < b.id ? -1 : 1));
    const half = Math.ceil(ordered.length / 2);
    for (const l of split === "dev" ? ordered.slice(0, half) : ordered.slice(half)) chosen.add(l.id);
  }
  return lives.filter((l) => chosen.has(l.id));
}

/** One memory as recall returned it. */
export interface Returned {
  id: string;
  event_time: string | null;
}

/** Fact key → the ids of the memories its write produced (or merged into). */
export type FactMemories = Map<string, string[]>;

export interface QuestionOutcome {
  id: string;
  lang: Lang;
  category: Category;
  question: string;
  ok: boolean;
  /** Best rank of each expected fact (null: not returned). */
  ranks: (number | null)[];
  /** Best rank of each stale fact (null: not returned). */
  staleRanks: (number | null)[];
  /** Whether the question names a day (a temporal question about a relative date). */
  dated: boolean;
  /** Whether the date matched (temporal questions with a date that got that far; null otherwise). */
  dateOk: boolean | null;
  returned: number;
  /** The fact key of each returned memory, in rank order ("?": a memory no fact's write returned); filled by the runner. */
  got?: string[];
  /** Why it failed, in a few words (null when it succeeded). */
  why: string | null;
}

/** One outcome of summarize_conversation, as far as the attribution needs it. */
export interface TranscriptOutcome {
  content: string;
  id: string | null;
  /** 1-based message number, or null when unknown. */
  turn: number | null;
}

/**
 * Which fact each stored outcome of a transcript is: the facts of its turn, narrowed to those whose
 * marker the outcome's content holds (case-insensitive) when the fact has one. Outcomes without an id
 * (rejected) or a turn are nobody's. Pairs [fact key, memory id], in outcome order.
 */
export function outcomeFacts(turns: Turn[], outcomes: TranscriptOutcome[]): [string, string][] {
  const out: [string, string][] = [];
  for (const o of outcomes) {
    const turn = o.turn === null ? undefined : turns[o.turn - 1];
    if (!o.id || !turn) continue;
    const content = o.content.toLowerCase();
    for (const f of turn.facts ?? [])
      if (!f.marker || content.includes(f.marker.toLowerCase())) out.push([f.key, o.id]);
  }
  return out;
}

/** Best 1-based rank among the fact's memories, or null. */
export function rankOf(returned: Returned[], ids: string[] | undefined): number | null {
  const own = new Set(ids ?? []);
  const at = returned.findIndex((m) => own.has(m.id));
  return at === -1 ? null : at + 1;
}

const dayOf = (isoText: string) => Date.parse(`${isoText.slice(0, 10)}T00:00:00.000Z`);

/** Whether an event_time falls on `day` (YYYY-MM-DD, UTC) ± `tolerance` days. */
export function onDay(eventTime: string | null, day: string, tolerance = 0): boolean {
  if (!eventTime || Number.isNaN(Date.parse(eventTime))) return false;
  const diff = Math.abs(dayOf(new Date(eventTime).toISOString()) - dayOf(day)) / 86_400_000;
  return diff <= tolerance;
}

/** Scores one question against what recall returned (see the module header). */
export function scoreQuestion(lang: Lang, q: Question, returned: Returned[], facts: FactMemories): QuestionOutcome {
  const ranks = q.expect.map((k) => rankOf(returned, facts.get(k)));
  const staleRanks = (q.stale ?? []).map((k) => rankOf(returned, facts.get(k)));
  const base = {
    id: q.id,
    lang,
    category: q.category,
    question: q.question,
    ranks,
    staleRanks,
    dated: q.date !== undefined,
    returned: returned.length,
  };
  if (q.category === "abstention") {
    const ok = returned.length === 0;
    return { ...base, ok, dateOk: null, why: ok ? null : `returned ${returned.length}` };
  }
  const missing = q.expect.filter((k) => !facts.get(k)?.length);
  if (missing.length) return { ...base, ok: false, dateOk: null, why: `not stored: ${missing.join(", ")}` };
  if (ranks.some((r) => r === null || r > HIT_K))
    return { ...base, ok: false, dateOk: null, why: `not in top ${HIT_K}` };
  const worst = Math.max(...(ranks as number[]));
  if (staleRanks.some((r) => r !== null && r <= worst))
    return { ...base, ok: false, dateOk: null, why: "replaced fact ranked at or above the current one" };
  let dateOk: boolean | null = null;
  if (q.date) {
    const own = new Set(q.expect.flatMap((k) => facts.get(k) ?? []));
    dateOk = returned.slice(0, HIT_K).some((m) => own.has(m.id) && onDay(m.event_time, q.date!, q.tolerance_days ?? 0));
    if (!dateOk) return { ...base, ok: false, dateOk, why: `event_time not on ${q.date}` };
  }
  return { ...base, ok: true, dateOk, why: null };
}

export interface Cell {
  questions: number;
  ok: number;
  rate: number;
}

export interface PersonSummary {
  overall: Cell;
  /** Temporal questions in two parts: an event said with a relative date, and the past ("before"). */
  temporalParts: { dated: Cell; past: Cell };
  byCategory: Record<string, Cell>;
  byLang: Record<string, Cell>;
  /** category → language → cell */
  byCategoryLang: Record<string, Record<string, Cell>>;
}

function cell(rows: QuestionOutcome[]): Cell {
  const ok = rows.filter((r) => r.ok).length;
  return { questions: rows.length, ok, rate: rows.length ? ok / rows.length : 0 };
}

/** Success rates overall, per category, per language and per both (categories and languages in their fixed order). */
export function summarizePerson(rows: QuestionOutcome[]): PersonSummary {
  const byCategory: Record<string, Cell> = {};
  const byLang: Record<string, Cell> = {};
  const byCategoryLang: Record<string, Record<string, Cell>> = {};
  for (const c of CATEGORIES) {
    const inCat = rows.filter((r) => r.category === c);
    if (!inCat.length) continue;
    byCategory[c] = cell(inCat);
    byCategoryLang[c] = {};
    for (const l of LANGS) {
      const both = inCat.filter((r) => r.lang === l);
      if (both.length) byCategoryLang[c][l] = cell(both);
    }
  }
  for (const l of LANGS) {
    const inLang = rows.filter((r) => r.lang === l);
    if (inLang.length) byLang[l] = cell(inLang);
  }
  const temporal = rows.filter((r) => r.category === "temporal");
  const temporalParts = { dated: cell(temporal.filter((r) => r.dated)), past: cell(temporal.filter((r) => !r.dated)) };
  return { overall: cell(rows), temporalParts, byCategory, byLang, byCategoryLang };
}

/** The summary as a table: one row per category, columns en, zh, all (rate and count). */
export function summaryLines(s: PersonSummary): string[] {
  const fmt = (c: Cell | undefined) => (c ? `${c.rate.toFixed(3)} (${c.ok}/${c.questions})` : "—");
  const pad = (t: string, n: number) => t + " ".repeat(Math.max(0, n - [...t].length));
  const out = [`${pad("category", 18)}${pad("en", 18)}${pad("zh", 18)}all`];
  for (const [c, cellAll] of Object.entries(s.byCategory))
    out.push(
      `${pad(c, 18)}${pad(fmt(s.byCategoryLang[c].en), 18)}${pad(fmt(s.byCategoryLang[c].zh), 18)}${fmt(cellAll)}`,
    );
  out.push(`${pad("all", 18)}${pad(fmt(s.byLang.en), 18)}${pad(fmt(s.byLang.zh), 18)}${fmt(s.overall)}`);
  const t = s.temporalParts;
  if (t.dated.questions + t.past.questions > 0)
    out.push(`temporal: relative dates ${fmt(t.dated)}, the past ${fmt(t.past)}`);
  return out;
}
