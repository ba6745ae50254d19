/**
 * @module scripts/lib/extract-data
 * LoCoMo → the extraction benchmark's cases. For each sample and each of its two speakers: every
 * session as a transcript from that speaker's side ("Name: text" lines, that speaker named as the
 * user), the speaker's observations with their evidence turns, the turns that carry any
 * observation, the speaker's own turns as a raw-turn store, and the questions whose evidence the
 * speaker spoke (relevance: those evidence turns). Pure, so unit tests run it as is.
 */
import { type BenchMemory, parseLocomoDate, splitEvidence } from "./bench-data.ts";

export interface Turn {
  diaId: string;
  speaker: string;
  text: string;
}

export interface ExtractSession {
  /** "session_3" */
  name: string;
  /** ISO 8601 of the session, or null. */
  date: string | null;
  turns: Turn[];
  /** One line per turn, `Name: text`, newlines inside a turn flattened so line n is turn n. */
  transcript: string;
  /** This speaker's observations, each as its evidence turn ids. */
  observations: string[][];
  /** Turns that carry an observation of either speaker. */
  observed: Set<string>;
}

export interface ExtractQuestion {
  question: string;
  category: string;
  /** Evidence turns spoken by this speaker. */
  relevant: string[];
}

export interface SpeakerCase {
  sampleId: string;
  speaker: string;
  /** Injective per (sample index, speaker side): "ex-3-a"; the raw store is "raw-3-a". */
  userId: string;
  rawUserId: string;
  sessions: ExtractSession[];
  questions: ExtractQuestion[];
  /** The speaker's own turns as one memory each (text as bench:recall imports it). */
  rawTurns: BenchMemory[];
}

type Obj = Record<string, unknown>;

/** A turn as one line of text: bench:recall's memory text without the speaker, image caption kept. */
export function turnText(turn: Obj): string {
  const caption = typeof turn.blip_caption === "string" ? ` [shared an image: ${turn.blip_caption}]` : "";
  return `${String(turn.text ?? "")}${caption}`.replace(/\s*\n\s*/g, " ").trim();
}

function observationsOf(sample: Obj, n: number, known: Set<string>): Map<string, string[][]> {
  const bySpeaker = new Map<string, string[][]>();
  const session = (sample.observation as Obj | undefined)?.[`session_${n}_observation`];
  if (typeof session !== "object" || session === null) return bySpeaker;
  for (const [speaker, list] of Object.entries(session as Obj)) {
    if (!Array.isArray(list)) continue;
    const evidence = list
      .filter((o): o is unknown[] => Array.isArray(o))
      .map((o) => splitEvidence(o[1], known))
      .filter((ids) => ids.length > 0);
    bySpeaker.set(speaker, evidence);
  }
  return bySpeaker;
}

function sessionsOf(sample: Obj, speaker: string): ExtractSession[] {
  const conversation = sample.conversation as Obj;
  const out: ExtractSession[] = [];
  for (let n = 1; Array.isArray(conversation[`session_${n}`]); n++) {
    const raw = conversation[`session_${n}`] as Obj[];
    const turns = raw.map((t) => ({ diaId: String(t.dia_id), speaker: String(t.speaker), text: turnText(t) }));
    const known = new Set(turns.map((t) => t.diaId));
    const observations = observationsOf(sample, n, known);
    out.push({
      name: `session_${n}`,
      date: parseLocomoDate(String(conversation[`session_${n}_date_time`] ?? "")),
      turns,
      transcript: turns.map((t) => `${t.speaker}: ${t.text}`).join("\n"),
      observations: observations.get(speaker) ?? [],
      observed: new Set([...observations.values()].flat(2)),
    });
  }
  return out;
}

function questionsOf(sample: Obj, spokenBy: Map<string, string>, speaker: string): ExtractQuestion[] {
  const out: ExtractQuestion[] = [];
  for (const q of (sample.qa as Obj[]) ?? []) {
    const category = String(q.category ?? "all");
    if (category === "5" || typeof q.question !== "string") continue;
    const relevant = splitEvidence(q.evidence, new Set(spokenBy.keys())).filter((id) => spokenBy.get(id) === speaker);
    if (relevant.length > 0) out.push({ question: q.question, category, relevant });
  }
  return out;
}

/** Both speakers of every sample, in file order. */
export function extractionCases(data: unknown): SpeakerCase[] {
  if (
    !Array.isArray(data) ||
    !data.every((s) => typeof s === "object" && s && "conversation" in s && "observation" in s)
  )
    throw new Error("expected LoCoMo samples with conversation and observation (shared/data/locomo)");
  const cases: SpeakerCase[] = [];
  (data as Obj[]).forEach((sample, index) => {
    const conversation = sample.conversation as Obj;
    const sides: [string, string][] = [
      ["a", String(conversation.speaker_a)],
      ["b", String(conversation.speaker_b)],
    ];
    for (const [side, speaker] of sides) {
      const sessions = sessionsOf(sample, speaker);
      const spokenBy = new Map(sessions.flatMap((s) => s.turns.map((t) => [t.diaId, t.speaker] as const)));
      const rawTurns = sessions.flatMap((s) =>
        s.turns
          .filter((t) => t.speaker === speaker)
          .map((t) => ({
            externalId: t.diaId,
            content: `${t.speaker}: ${t.text}`,
            eventTime: s.date,
            source: `${sample.sample_id}/${s.name}`,
          })),
      );
      cases.push({
        sampleId: String(sample.sample_id),
        speaker,
        userId: `ex-${index}-${side}`,
        rawUserId: `raw-${index}-${side}`,
        sessions,
        questions: questionsOf(sample, spokenBy, speaker),
        rawTurns,
      });
    }
  });
  return cases;
}
