/**
 * @module scripts/lib/zh-dataset/build-dataset
 * Hand-written users (parse-users.ts) → the two files of the Chinese conversational benchmark, in
 * the generic format of shared/data/README.md. Deterministic for a seed:
 * - small talk (greetings, sign-offs, weather) is added at the start or end of some sessions, as
 *   real chats have it; it answers no question and is a distractor for every one;
 * - about half of the questions get the conversational framing users actually type around a
 *   question (「我曾经和你说过…」「你还记得…吗」「…来着」), so no method can lean on the bare wording;
 * - a fifth of the users is set aside as the test split, never used for tuning;
 * - each question has a category: the one its line names (`?[multi-hop]`: the answer needs two
 *   memories chained through a person or relation), else `relative-date` for users asked on a fixed
 *   day and `single-hop` for the others. Questions with a named category are framed from a second
 *   seeded stream, so adding them leaves every other draw (small talk, framing, the split) as it was.
 * Pure: build-zh-dataset.ts reads the files and writes the JSON.
 */

import { prng } from "../bench-synthetic.ts";
import type { ZhSession, ZhUser } from "./parse-users.ts";

export interface GenericMemory {
  id: string;
  date: string;
  text: string;
}

export interface GenericSample {
  sample_id: string;
  /** The day the questions are asked; the benchmark shifts dates so that this is today. */
  asked_on?: string;
  memories: GenericMemory[];
  qa: { question: string; evidence: string[]; category: string }[];
}

/** The benchmarks' one seeded PRNG (mulberry32, scripts/lib/bench-synthetic.ts), named for the data set. */
export const seededRandom = prng;

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)];

const OPENERS = ["在吗？", "在忙吗？", "嗨，吃饭了没？", "刚下班，累死了。", "今天降温了，好冷。", "早啊！"];
const CLOSERS = [
  "好的，那先这样。",
  "哈哈哈哈",
  "晚安，早点睡。",
  "嗯嗯，回头聊。",
  "收到！",
  "周末愉快～",
  "好嘞，拜拜。",
];

/** Framings of a question (without its final ？). `null` when a framing does not fit this question. */
const FRAMINGS: ((core: string) => string | null)[] = [
  (c) => `我曾经和你说过${c}，你还记得吗？`,
  (c) => (/(吗|是不是|有没有)/.test(c) ? null : `你还记得${c}吗？`),
  (c) => `我之前跟你提到过，${c}？`,
  (c) => `${c}来着？`,
  (c) => `帮我回忆一下，${c}？`,
  (c) => `我好像跟你讲过的，${c}？`,
  (c) => `之前聊天的时候我说过，${c}？`,
  (c) => `我忘了${c}，你帮我查一下。`,
  (c) => `还记得吗？${c}？`,
];

const ALREADY_FRAMED = /^(我曾经|你还记得|你记得|我之前|我是不是|我说过|我跟你说过)/;

function frame(question: string, rnd: () => number): string {
  if (ALREADY_FRAMED.test(question) || rnd() < 0.5) return question;
  const core = question.replace(/[？?]$/, "");
  return pick(rnd, FRAMINGS)(core) ?? question;
}

/** The session's turns with small talk added; returns memories and old id → new id. */
function sessionMemories(s: ZhSession, user: ZhUser, rnd: () => number, ids: Map<string, string>): GenericMemory[] {
  const partner = s.turns.find((t) => t.speaker !== user.name)?.speaker ?? s.partner;
  const lines: { old?: string; speaker: string; text: string }[] = s.turns.map((t) => ({ old: t.id, ...t }));
  if (rnd() < 0.4) lines.unshift({ speaker: pick(rnd, [user.name, partner]), text: pick(rnd, OPENERS) });
  if (rnd() < 0.5) lines.push({ speaker: pick(rnd, [user.name, partner]), text: pick(rnd, CLOSERS) });
  return lines.map((l, i) => {
    const id = `${s.date}#${i + 1}`;
    if (l.old) ids.set(l.old, id);
    return { id, date: s.date, text: `${l.speaker}：${l.text}` };
  });
}

/** `tagged` frames the questions whose line names a category (see the module header). */
export function userSample(user: ZhUser, rnd: () => number, tagged: () => number = rnd): GenericSample {
  const ids = new Map<string, string>();
  const memories = user.sessions.flatMap((s) => sessionMemories(s, user, rnd, ids));
  const qa = user.questions.map((q) => ({
    question: frame(q.question, q.category ? tagged : rnd),
    evidence: q.evidence.map((e) => ids.get(e)!),
    category: q.category ?? (user.askedOn ? "relative-date" : "single-hop"),
  }));
  return { sample_id: user.sampleId, ...(user.askedOn ? { asked_on: user.askedOn } : {}), memories, qa };
}

/**
 * Dev and test samples: a seeded fifth of the users is the test split, drawn separately (at least
 * one each) from users asked on a fixed day (relative dates) and from the others, so both kinds of
 * question are tested.
 */
export function buildDataset(users: ZhUser[], seed: number): { dev: GenericSample[]; test: GenericSample[] } {
  const ids = users.map((u) => u.sampleId);
  if (new Set(ids).size !== ids.length) throw new Error("sample ids repeat");
  const rnd = seededRandom(seed);
  const tagged = seededRandom(seed + 1);
  const samples = users.map((u) => userSample(u, rnd, tagged));
  const test = new Set<GenericSample>();
  for (const relative of [false, true]) {
    const group = samples.filter((s) => (s.asked_on !== undefined) === relative);
    const order = group.map((s) => ({ s, key: rnd() })).sort((a, b) => a.key - b.key);
    const count = group.length === 0 ? 0 : Math.max(1, Math.round(group.length / 5));
    for (const o of order.slice(0, count)) test.add(o.s);
  }
  return { dev: samples.filter((s) => !test.has(s)), test: samples.filter((s) => test.has(s)) };
}
