/**
 * @module scripts/lib/person-data
 * The data of `npm run bench:person` (bench/person/lives.json): scripted lives, each a sequence of
 * dated sessions in which a person tells an agent about their life, and the questions asked of it
 * afterwards with the facts that must answer them. The zod schema here is the single definition of
 * the file's shape; `parseLives` also checks what a schema cannot: every question names facts its
 * own life holds, fact keys are unique within a life, a knowledge-update question names the fact it
 * replaced, a question about a date names the date. Pure (no I/O).
 */
import { z } from "zod";

export const CATEGORIES = [
  "knowledge-update",
  "temporal",
  "two-hop",
  "abstention",
  "preference",
  "single-fact",
] as const;
export type Category = (typeof CATEGORIES)[number];
export const LANGS = ["en", "zh"] as const;
export type Lang = (typeof LANGS)[number];

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD");
const key = z.string().regex(/^[a-z0-9][a-z0-9.-]{0,63}$/, "must be a fact key: a-z, 0-9, '.', '-'");

const factRef = z.object({
  key: key.describe("The fact this turn states, unique within the life"),
  marker: z
    .string()
    .min(1)
    .optional()
    .describe("When one turn states several facts: a phrase only this fact's memory holds (case-insensitive)"),
});

const turn = z.object({
  role: z.enum(["user", "assistant"]),
  text: z.string().min(1).max(2000),
  facts: z.array(factRef).optional().describe("Facts stated in this turn (user turns only)"),
});

const session = z.object({
  date: day.describe("The day the conversation happened"),
  via: z
    .enum(["save", "transcript"])
    .describe("save: each user turn is one save_memory call; transcript: one summarize_conversation call"),
  turns: z.array(turn).min(1),
});

const question = z.object({
  id: z.string().min(1).max(80),
  category: z.enum(CATEGORIES),
  question: z.string().min(1).max(500),
  expect: z.array(key).describe("Facts that must be returned (each of them); none for abstention"),
  stale: z.array(key).optional().describe("Knowledge update: facts it replaced, which must not rank above"),
  date: day.optional().describe("Temporal: the day the expected fact's event_time must fall on"),
  tolerance_days: z.number().int().min(0).max(7).optional().describe("Days either side of `date` that still count"),
});

export const lifeSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/, "must be a-z, 0-9 and '-', at most 40 characters"),
  lang: z.enum(LANGS),
  name: z.string().min(1).max(80),
  sessions: z.array(session).min(1),
  questions: z.array(question).min(1),
});

export const livesFile = z.object({
  seed: z.number().int().describe("The generator's seed (person-lives.ts)"),
  lives: z.array(lifeSchema).min(1),
});

export type Turn = z.infer<typeof turn>;
export type Session = z.infer<typeof session>;
export type Question = z.infer<typeof question>;
export type Life = z.infer<typeof lifeSchema>;
export type LivesFile = z.infer<typeof livesFile>;

/** Every fact key of a life, in the order it is told, with the turn that tells it. */
export function factsOf(life: Life): { key: string; session: number; turn: number; marker?: string }[] {
  return life.sessions.flatMap((s, si) =>
    s.turns.flatMap((t, ti) => (t.facts ?? []).map((f) => ({ key: f.key, session: si, turn: ti, marker: f.marker }))),
  );
}

/** What is wrong with a life beyond its shape: one sentence per problem, naming the life and the field. */
export function lifeProblems(life: Life): string[] {
  const out: string[] = [];
  const at = (what: string) => `${life.id}: ${what}`;
  const keys = new Set<string>();
  for (const f of factsOf(life)) {
    if (keys.has(f.key)) out.push(at(`fact key ${f.key} is stated twice`));
    keys.add(f.key);
  }
  life.sessions.forEach((s, si) => {
    if (si > 0 && s.date < life.sessions[si - 1].date)
      out.push(at(`sessions[${si}].date ${s.date} is before the session it follows`));
    s.turns.forEach((t, ti) => {
      if (t.role !== "user" && t.facts?.length)
        out.push(at(`sessions[${si}].turns[${ti}]: only user turns state facts`));
      if (s.via === "save" && t.role !== "user")
        out.push(at(`sessions[${si}].turns[${ti}]: a save session has user turns only`));
      if (s.via === "save" && (t.facts?.length ?? 0) !== 1)
        out.push(at(`sessions[${si}].turns[${ti}]: a save session's turn states exactly one fact`));
      for (const f of t.facts ?? [])
        if (f.marker && !t.text.toLowerCase().includes(f.marker.toLowerCase()))
          out.push(at(`sessions[${si}].turns[${ti}]: marker ${JSON.stringify(f.marker)} is not in the turn`));
    });
  });
  const ids = new Set<string>();
  for (const q of life.questions) {
    const where = `question ${q.id}`;
    if (ids.has(q.id)) out.push(at(`${where} appears twice`));
    ids.add(q.id);
    for (const k of [...q.expect, ...(q.stale ?? [])])
      if (!keys.has(k)) out.push(at(`${where} names fact ${k}, which the life never states`));
    if (q.category === "abstention" && q.expect.length > 0) out.push(at(`${where}: abstention expects nothing`));
    if (q.category !== "abstention" && q.expect.length === 0) out.push(at(`${where}: expect must name a fact`));
    if (q.category === "knowledge-update" && !q.stale?.length) out.push(at(`${where}: knowledge-update needs stale`));
    if (q.category !== "knowledge-update" && q.stale?.length) out.push(at(`${where}: only knowledge-update has stale`));
    if (q.date && q.category !== "temporal") out.push(at(`${where}: only temporal questions name a date`));
  }
  return out;
}

export class PersonDataError extends Error {}

/** The file parsed and checked; throws PersonDataError naming every problem (zod's path and rule, or a cross-reference). */
export function parseLives(data: unknown): LivesFile {
  const parsed = livesFile.safeParse(data);
  if (!parsed.success)
    throw new PersonDataError(
      parsed.error.issues
        .slice(0, 10)
        .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
        .join("\n"),
    );
  const problems: string[] = [];
  const lifeIds = new Set<string>();
  for (const life of parsed.data.lives) {
    if (lifeIds.has(life.id)) problems.push(`${life.id}: two lives share this id`);
    lifeIds.add(life.id);
    problems.push(...lifeProblems(life));
  }
  if (problems.length) throw new PersonDataError(problems.slice(0, 20).join("\n"));
  return parsed.data;
}
