/**
 * @module scripts/lib/bench-data
 * Evaluation files → samples the recall benchmark loads, one user per sample. Accepts the two
 * formats of shared/data/README.md and tells them apart by shape:
 *   LoCoMo  [{sample_id, conversation: {speaker_a, session_N: [turns], session_N_date_time}, qa}]
 *   generic [{sample_id, asked_on?, memories: [{id, date, text}], qa: [{question, evidence, answer}]}]
 * A generic sample with `asked_on` (YYYY-MM-DD: the day its questions are asked, for questions such
 * as 「上周」「三天前」) has every date shifted by whole days so that `asked_on` is today: the server
 * reads relative dates against its own clock.
 * Pure (no I/O), so unit tests run it as is.
 */

export type BenchFormat = "locomo" | "generic";

export interface BenchMemory {
  /** The id evidence refers to ("D3:7", "2023-04-27#1"); sent as the import line's external_id. */
  externalId: string;
  content: string;
  /** ISO 8601, or null when the file gives no usable date. */
  eventTime: string | null;
  /** One conversation (LoCoMo session, or one date of the generic format): neighbours share it. */
  source: string;
}

export interface BenchQuestion {
  question: string;
  /** External ids of the memories that answer it. */
  evidence: string[];
  /** LoCoMo category number as text ("1".."4"); in the generic format the file's category, or "all". */
  category: string;
  /** The file's answer as text (LoCoMo writes some years as numbers), when it gives one. */
  answer?: string;
}

export interface BenchSample {
  id: string;
  memories: BenchMemory[];
  questions: BenchQuestion[];
}

export interface BenchDataset {
  format: BenchFormat;
  samples: BenchSample[];
  /** Questions left out: adversarial (LoCoMo category 5) or without usable evidence. */
  skippedQuestions: number;
}

export const LOCOMO_CATEGORIES: Record<string, string> = {
  "1": "multi-hop",
  "2": "temporal",
  "3": "open-domain",
  "4": "single-hop",
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export function detectFormat(data: unknown): BenchFormat {
  const first = Array.isArray(data) ? data[0] : undefined;
  if (isObj(first) && isObj(first.conversation) && Array.isArray(first.qa)) return "locomo";
  if (isObj(first) && Array.isArray(first.memories) && Array.isArray(first.qa)) return "generic";
  throw new Error(
    "unrecognised data: expected a JSON array of LoCoMo samples ({sample_id, conversation, qa}) or of generic samples ({sample_id, memories: [{id, date, text}], qa})",
  );
}

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** LoCoMo's "1:56 pm on 8 May, 2023" → ISO 8601 (UTC), or null. */
export function parseLocomoDate(text: string): string | null {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})/i.exec(text);
  const month = m ? MONTHS.indexOf(m[5].toLowerCase()) : -1;
  if (!m || month < 0) return null;
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === "pm" ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

/** Generic dates: "2023-04-27" or any ISO 8601 string → ISO, or null. */
function isoOrNull(value: unknown): string | null {
  if (typeof value !== "string" || Number.isNaN(Date.parse(value))) return null;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : new Date(value).toISOString();
}

/** Evidence ids split leniently ("D8:6; D9:17"), kept only when the sample has them. */
export function splitEvidence(evidence: unknown, known: Set<string>): string[] {
  const raw = Array.isArray(evidence) ? evidence : [evidence];
  const ids = raw
    .filter((e): e is string => typeof e === "string")
    .flatMap((e) => e.split(/[;,\s]+/))
    .map((e) => e.trim());
  return [...new Set(ids.filter((e) => known.has(e)))];
}

function locomoMemories(sampleId: string, conversation: Obj): BenchMemory[] {
  const out: BenchMemory[] = [];
  for (let n = 1; Array.isArray(conversation[`session_${n}`]); n++) {
    const eventTime = parseLocomoDate(String(conversation[`session_${n}_date_time`] ?? ""));
    for (const turn of conversation[`session_${n}`] as Obj[]) {
      const caption = typeof turn.blip_caption === "string" ? ` [shared an image: ${turn.blip_caption}]` : "";
      out.push({
        externalId: String(turn.dia_id),
        content: `${turn.speaker}: ${turn.text}${caption}`,
        eventTime,
        source: `${sampleId}/session_${n}`,
      });
    }
  }
  return out;
}

const DAY_MS = 86_400_000;

/** Milliseconds to add to a generic sample's dates: `asked_on` → today (UTC), whole days; 0 without it. */
export function askedOnShift(askedOn: unknown, now: number): number {
  if (askedOn === undefined) return 0;
  const at = typeof askedOn === "string" && /^\d{4}-\d{2}-\d{2}$/.test(askedOn) ? Date.parse(askedOn) : Number.NaN;
  if (Number.isNaN(at)) throw new Error(`asked_on must be a date YYYY-MM-DD, got ${JSON.stringify(askedOn)}`);
  return Math.floor(now / DAY_MS) * DAY_MS - at;
}

function genericMemories(id: string, s: Obj, now: number): BenchMemory[] {
  const shift = askedOnShift(s.asked_on, now);
  return (s.memories as Obj[]).map((m) => {
    const iso = isoOrNull(m.date);
    return {
      externalId: String(m.id),
      content: String(m.text ?? ""),
      eventTime: iso && shift ? new Date(Date.parse(iso) + shift).toISOString() : iso,
      source: `${id}/${typeof m.source === "string" ? m.source : String(m.date ?? "")}`,
    };
  });
}

function answerOf(answer: unknown): { answer?: string } {
  if (typeof answer === "number") return { answer: String(answer) };
  return typeof answer === "string" && answer.trim() ? { answer: answer.trim() } : {};
}

function sampleOf(format: BenchFormat, s: Obj, counts: { skipped: number }, now: number): BenchSample {
  const id = String(s.sample_id ?? "");
  const memories = format === "locomo" ? locomoMemories(id, s.conversation as Obj) : genericMemories(id, s, now);
  const known = new Set(memories.map((m) => m.externalId));
  const questions: BenchQuestion[] = [];
  for (const q of s.qa as Obj[]) {
    const category = q.category === undefined ? "all" : String(q.category);
    const evidence = splitEvidence(q.evidence, known);
    if ((format === "locomo" && category === "5") || evidence.length === 0 || typeof q.question !== "string")
      counts.skipped++;
    else questions.push({ question: q.question, evidence, category, ...answerOf(q.answer) });
  }
  return { id, memories, questions };
}

/** `now` anchors `asked_on` (see the module header). */
export function loadDataset(data: unknown, now = Date.now()): BenchDataset {
  const format = detectFormat(data);
  const counts = { skipped: 0 };
  const samples = (data as Obj[]).map((s) => sampleOf(format, s, counts, now));
  return { format, samples, skippedQuestions: counts.skipped };
}
