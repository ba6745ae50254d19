/**
 * @module scripts/lib/person-lives
 * Assembles bench:person's scripted lives from the hand-written blocks (person-blocks.ts) with a
 * fixed seed: for each persona, 5–7 dated sessions in which a life changes (a move, a new job, a
 * habit switched, a corrected number, a new partner), people are introduced by a relation word and
 * described later without it, dates are said relative to the day of the conversation, preferences
 * and plain facts are told, and afterwards the questions with the facts that must answer them.
 * `npm run bench:person -- --write-data` writes the result to bench/person/lives.json; a unit test
 * checks that the committed file is exactly what the seed gives. Pure: the same seed, the same lives.
 */
import { type Blocks, type Change, type DateRule, EN, ZH } from "./person-blocks.ts";
import type { Category, Life, LivesFile, Question, Session, Turn } from "./person-data.ts";
import { Rng } from "./stress-prng.ts";

export const PERSON_SEED = 20261204;

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const parseDay = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** The day a relative date said on `said` (YYYY-MM-DD) means, weeks starting on Monday. */
export function resolveDate(said: string, rule: DateRule): string {
  const at = parseDay(said);
  const d = new Date(at);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (rule.kind) {
    case "days":
      return iso(at + rule.n * DAY_MS);
    case "weekday-next-week": {
      const weekday = ((d.getUTCDay() + 6) % 7) + 1; // Monday 1 … Sunday 7
      return iso(at + (8 - weekday + rule.weekday - 1) * DAY_MS);
    }
    case "day-of-month":
      return iso(Date.UTC(y, d.getUTCDate() < rule.day ? m : m + 1, rule.day));
    case "end-of-month":
      return iso(Date.UTC(y, m + 1, 0));
    case "next-month-day":
      return iso(Date.UTC(y, m + 1, rule.day));
  }
}

interface Statement {
  text: string;
  facts: { key: string; marker?: string }[];
  /** Statements of one group keep their order within a session. */
  group: string;
  seq: number;
}

const fill = (template: string, slots: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => slots[name] ?? `{${name}}`);

/** `count` distinct items of `items`, in random order. */
function sample<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length) out.push(pool.splice(rng.int(pool.length), 1)[0]);
  return out;
}

class LifeDraft {
  readonly sessions: { date: string; via: Session["via"]; statements: Statement[] }[] = [];
  readonly questions: Question[] = [];
  readonly topics = new Set<string>();
  private groups = 0;
  readonly rng: Rng;
  readonly b: Blocks;
  readonly id: string;

  constructor(rng: Rng, b: Blocks, id: string) {
    this.rng = rng;
    this.b = b;
    this.id = id;
    const count = rng.between(5, 7);
    let at = parseDay("2024-02-01") + rng.int(400) * DAY_MS;
    const transcripts = new Set(sample(rng, [...Array(count).keys()], 2));
    for (let i = 0; i < count; i++) {
      const via = transcripts.has(i) ? "transcript" : i === 0 ? "save" : rng.chance(0.4) ? "transcript" : "save";
      this.sessions.push({ date: iso(at), via, statements: [] });
      at += rng.between(6, 60) * DAY_MS;
    }
  }

  get last() {
    return this.sessions.length - 1;
  }

  /** Two session indices, the first strictly earlier. */
  pair(): [number, number] {
    const i = this.rng.int(this.last);
    return [i, this.rng.between(i + 1, this.last)];
  }

  transcript(): number {
    return this.rng.pick(this.sessions.flatMap((s, i) => (s.via === "transcript" ? [i] : [])));
  }

  /** Adds statements to sessions, one group: they keep this order wherever they share a session. */
  tell(...items: { session: number; text: string; facts: Statement["facts"] }[]): void {
    const group = `g${this.groups++}`;
    items.forEach((item, seq) => this.sessions[item.session].statements.push({ ...item, group, seq }));
  }

  ask(category: Category, question: string, expect: string[], extra: Partial<Question> = {}): void {
    this.questions.push({ id: `${this.id}-q${this.questions.length + 1}`, category, question, expect, ...extra });
  }

  /** A block whose topic this life has not used yet (and marks it used), or null. */
  fresh<T extends { topic: string }>(items: readonly T[]): T | null {
    const left = items.filter((x) => !this.topics.has(x.topic));
    if (!left.length) return null;
    const chosen = this.rng.pick(left);
    this.topics.add(chosen.topic);
    return chosen;
  }
}

function homeOrJob(d: LifeDraft, kind: "home" | "job"): void {
  const { rng, b } = d;
  const t = b[kind];
  const [c1, c2] = sample(rng, b.cities, 2);
  const [co1, co2] = sample(rng, b.companies, 2);
  const slots = { c1, c2, co1, co2, r1: rng.pick(b.roles) };
  const [i, j] = d.pair();
  d.topics.add(kind);
  d.tell(
    { session: i, text: fill(rng.pick(t.from), slots), facts: [{ key: `${kind}.1` }] },
    { session: j, text: fill(rng.pick(t.to), slots), facts: [{ key: `${kind}.2` }] },
  );
  d.ask("knowledge-update", rng.pick(t.now), [`${kind}.2`], { stale: [`${kind}.1`] });
  d.ask("temporal", rng.pick(t.before), [`${kind}.1`]);
}

/** A change said in one turn, in two turns of one conversation, or in two sessions. */
function change(d: LifeDraft, c: Change, key: string, sameTurn: boolean): void {
  const { rng, b } = d;
  const mode =
    sameTurn && c.marks
      ? rng.weighted({ turn: 35, conversation: 25, sessions: 40 })
      : rng.weighted({ conversation: 40, sessions: 60 });
  const from = `${key}.1`;
  const to = `${key}.2`;
  if (mode === "turn") {
    const text = fill(rng.pick(b.join), { from: c.from, to: c.to });
    d.tell({
      session: d.transcript(),
      text,
      facts: [
        { key: from, marker: c.marks![0] },
        { key: to, marker: c.marks![1] },
      ],
    });
  } else if (mode === "conversation") {
    const s = d.transcript();
    d.tell({ session: s, text: c.from, facts: [{ key: from }] }, { session: s, text: c.to, facts: [{ key: to }] });
  } else {
    const [i, j] = d.pair();
    d.tell({ session: i, text: c.from, facts: [{ key: from }] }, { session: j, text: c.to, facts: [{ key: to }] });
  }
  d.ask("knowledge-update", rng.pick(c.now), [to], { stale: [from] });
}

function relation(d: LifeDraft, n: number, names: { m: string[]; f: string[] }, jobs: string[]): void {
  const { rng, b } = d;
  const rel = d.fresh(b.relations.map((r) => ({ ...r, topic: `rel:${r.rel}` })));
  if (!rel) return;
  const gender = rel.gender === "any" ? rng.pick(["m", "f"] as const) : rel.gender;
  const name = names[gender].pop()!;
  const [i, j] = d.last > 0 && rng.chance(0.8) ? d.pair() : [d.rng.int(d.sessions.length), -1];
  const key = `rel${n}`;
  d.tell(
    { session: i, text: fill(rng.pick(rel.link), { n: name, rel: rel.rel }), facts: [{ key: `${key}.who` }] },
    { session: j === -1 ? i : j, text: fill(jobs.pop()!, { n: name }), facts: [{ key: `${key}.job` }] },
  );
  d.ask("two-hop", fill(rng.pick(b.twoHop), { rel: rng.pick(rel.ask) }), [`${key}.job`]);
}

function partner(d: LifeDraft): void {
  const { rng, b } = d;
  const [p, p2] = sample(rng, b.partner.names, 2);
  const [i, j] = d.pair();
  d.topics.add("partner");
  d.tell(
    { session: i, text: fill(rng.pick(b.partner.from), { p }), facts: [{ key: "partner.1" }] },
    { session: j, text: fill(rng.pick(b.partner.to), { p, p2 }), facts: [{ key: "partner.2" }] },
  );
  d.ask("knowledge-update", rng.pick(b.partner.now), ["partner.2"], { stale: ["partner.1"] });
}

function pet(d: LifeDraft): void {
  const { rng, b } = d;
  const kind = rng.pick(b.pets);
  d.topics.add("pet");
  d.tell({
    session: rng.int(d.sessions.length),
    text: fill(kind.say, { n: rng.pick(kind.names) }),
    facts: [{ key: "pet" }],
  });
  d.ask("single-fact", rng.pick(kind.ask), ["pet"]);
}

function event(d: LifeDraft, n: number): void {
  const { rng, b } = d;
  const e = d.fresh(b.events);
  if (!e) return;
  const when = rng.pick(b.whens);
  const s = d.transcript();
  d.tell({ session: s, text: fill(e.say, { when: when.text }), facts: [{ key: `event${n}` }] });
  d.ask("temporal", rng.pick(e.ask), [`event${n}`], {
    date: resolveDate(d.sessions[s].date, when.rule),
    ...(when.tolerance ? { tolerance_days: when.tolerance } : {}),
  });
}

function said(
  d: LifeDraft,
  items: Blocks["prefs"],
  told: number,
  asked: number,
  key: string,
  category: Category,
): void {
  const { rng } = d;
  for (let n = 1; n <= told; n++) {
    const it = d.fresh(items);
    if (!it) return;
    d.tell({ session: rng.int(d.sessions.length), text: it.say, facts: [{ key: `${key}${n}` }] });
    if (n <= asked) d.ask(category, rng.pick(it.ask), [`${key}${n}`]);
  }
}

function abstain(d: LifeDraft, count: number): void {
  for (let n = 0; n < count; n++) {
    const it = d.fresh(d.b.abstain);
    if (it) d.ask("abstention", it.ask, []);
  }
}

/** Statements in a random order, each group's in its own order. */
function order(rng: Rng, statements: Statement[]): Statement[] {
  const shuffled = sample(rng, statements, statements.length);
  const slots = new Map<string, number[]>();
  shuffled.forEach((s, at) => slots.set(s.group, [...(slots.get(s.group) ?? []), at]));
  const out = [...shuffled];
  for (const [group, at] of slots) {
    const inOrder = statements.filter((s) => s.group === group).sort((a, b) => a.seq - b.seq);
    at.forEach((pos, k) => (out[pos] = inOrder[k]));
  }
  return out;
}

function render(rng: Rng, b: Blocks, s: LifeDraft["sessions"][number]): Session {
  const turns: Turn[] = [];
  const statements = order(rng, s.statements);
  if (s.via === "save") {
    for (const st of statements) turns.push({ role: "user", text: st.text, facts: st.facts });
    return { date: s.date, via: s.via, turns };
  }
  if (rng.chance(0.4))
    turns.push({ role: "user", text: rng.pick(b.openers) }, { role: "assistant", text: rng.pick(b.greetings) });
  for (const st of statements) {
    turns.push({ role: "user", text: st.text, facts: st.facts });
    if (rng.chance(0.8)) turns.push({ role: "assistant", text: rng.pick(b.replies) });
  }
  return { date: s.date, via: s.via, turns };
}

function generateLife(rng: Rng, b: Blocks, n: number, persona: Blocks["personas"][number]): Life {
  const id = `${b.lang}-${String(n).padStart(2, "0")}-${persona.slug}`;
  const d = new LifeDraft(rng, b, id);
  const names = {
    m: sample(rng, b.relNames.m, b.relNames.m.length),
    f: sample(rng, b.relNames.f, b.relNames.f.length),
  };
  const jobs = sample(rng, b.occupations, b.occupations.length);
  const home = rng.chance(0.75);
  if (home) homeOrJob(d, "home");
  if (!home || rng.chance(0.7)) homeOrJob(d, "job");
  const habits = rng.chance(0.3) ? 2 : 1;
  for (let k = 1; k <= habits; k++) {
    const h = d.fresh(b.habits);
    if (h) change(d, h, `habit${k}`, true);
  }
  if (rng.chance(0.7)) {
    const c = d.fresh(b.numbers);
    if (c) change(d, c, "number", false);
  }
  relation(d, 1, names, jobs);
  if (rng.chance(0.5)) relation(d, 2, names, jobs);
  if (rng.chance(0.4)) partner(d);
  if (rng.chance(0.5)) pet(d);
  event(d, 1);
  if (rng.chance(0.5)) event(d, 2);
  said(d, b.prefs, rng.between(2, 3), rng.between(1, 2), "pref", "preference");
  said(d, b.singles, rng.between(3, 5), 2, "fact", "single-fact");
  abstain(d, 2);
  const sessions = d.sessions.filter((s) => s.statements.length > 0).map((s) => render(rng, b, s));
  return { id, lang: b.lang, name: persona.name, sessions, questions: d.questions };
}

/** Every life: the English personas then the Chinese ones, each from its own stream of the seed. */
export function generateLives(seed = PERSON_SEED): LivesFile {
  const root = new Rng(seed);
  const lives: Life[] = [];
  for (const b of [EN, ZH]) {
    const rng = root.fork();
    b.personas.forEach((persona, i) => lives.push(generateLife(rng.fork(), b, i + 1, persona)));
  }
  return { seed, lives };
}
