/**
 * @module scripts/lib/extract-zh
 * The Chinese extraction set (bench/zh-extract.json) and its scores. Each conversation has the
 * user's and the assistant's messages, its date, and the facts a reader should keep, each with the
 * 1-based message it is stated in. An extracted memory matches an expected fact when it comes from
 * that message and holds at least half of the fact's content tokens (Han character bigrams, Latin
 * words and numbers; particles aside). Coverage: expected facts some stored memory matches;
 * precision: stored memories that match an expected fact; noise: stored memories from the
 * assistant's messages.
 */

export interface ZhMessage {
  role: "user" | "assistant";
  content: string;
}

export interface ZhFact {
  turn: number;
  fact: string;
  category: string;
}

export interface ZhConversation {
  id: string;
  date: string;
  split: "dev" | "test";
  messages: ZhMessage[];
  facts: ZhFact[];
}

export interface ZhOutcome {
  content: string;
  status: string;
  turn: number | null;
}

export interface ZhScore {
  facts: number;
  covered: number;
  stored: number;
  precise: number;
  noise: number;
}

const STORED = new Set(["created", "merged", "superseded"]);
const PARTICLES = /[的了着呢吧啊呀吗嘛哦，。！？、；：,.!?;:\s《》“”"'（）()]/gu;
const HAN = /\p{Script=Han}/u;

/** Content tokens: bigrams of each run of Han characters (a lone character alone), Latin words and numbers. */
export function zhTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const run of text.replace(PARTICLES, " ").split(" ")) {
    const chars = [...run];
    let han: string[] = [];
    const flush = () => {
      if (han.length === 1) out.add(han[0]);
      for (let i = 0; i + 1 < han.length; i++) out.add(han[i] + han[i + 1]);
      han = [];
    };
    let word = "";
    for (const c of chars) {
      if (HAN.test(c)) {
        if (word) out.add(word.toLowerCase());
        word = "";
        han.push(c);
      } else {
        flush();
        word += c;
      }
    }
    flush();
    if (word) out.add(word.toLowerCase());
  }
  return out;
}

/** Share of the expected fact's tokens the memory holds. */
export function factHeld(fact: string, memory: string): number {
  const want = zhTokens(fact);
  const have = zhTokens(memory);
  let n = 0;
  for (const t of want) if (have.has(t)) n++;
  return want.size === 0 ? 0 : n / want.size;
}

const HELD = 0.5;

/** A memory from the fact's message that holds at least half of its content tokens. */
export function matchesFact(o: { content: string; turn: number | null }, f: ZhFact): boolean {
  return o.turn === f.turn && factHeld(f.fact, o.content) >= HELD;
}

export function scoreConversation(c: ZhConversation, outcomes: ZhOutcome[]): ZhScore {
  const stored = outcomes.filter((o) => STORED.has(o.status));
  const matches = matchesFact;
  return {
    facts: c.facts.length,
    covered: c.facts.filter((f) => stored.some((o) => matches(o, f))).length,
    stored: stored.length,
    precise: stored.filter((o) => c.facts.some((f) => matches(o, f))).length,
    noise: stored.filter((o) => o.turn !== null && c.messages[o.turn - 1]?.role !== "user").length,
  };
}

export function addZh(a: ZhScore, b: ZhScore): ZhScore {
  return {
    facts: a.facts + b.facts,
    covered: a.covered + b.covered,
    stored: a.stored + b.stored,
    precise: a.precise + b.precise,
    noise: a.noise + b.noise,
  };
}

export function zhConversations(data: unknown): ZhConversation[] {
  const list = (data as { conversations?: ZhConversation[] }).conversations;
  if (!Array.isArray(list)) throw new Error("expected {conversations: [...]} (bench/zh-extract.json)");
  return list;
}

/**
 * The conversations a `--ids` list names: ids and ranges of ids separated by commas ("c25-c33,c02"),
 * a range being every id whose number lies between its ends' (same prefix). Unknown ids are an error.
 */
export function selectConversations(list: ZhConversation[], spec: string): ZhConversation[] {
  const wanted = new Set<string>();
  for (const part of spec
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const range = /^([a-z]*)(\d+)-\1(\d+)$/i.exec(part);
    if (range === null) {
      if (!list.some((c) => c.id === part)) throw new Error(`--ids: no conversation ${part}`);
      wanted.add(part);
      continue;
    }
    const [, prefix, from, to] = range;
    const inRange = list.filter((c) => {
      const m = /^([a-z]*)(\d+)$/i.exec(c.id);
      return m !== null && m[1] === prefix && Number(m[2]) >= Number(from) && Number(m[2]) <= Number(to);
    });
    if (inRange.length === 0) throw new Error(`--ids: no conversation in ${part}`);
    for (const c of inRange) wanted.add(c.id);
  }
  return list.filter((c) => wanted.has(c.id));
}

/** The seed of the split of c25–c33 (docs/benchmarks.md, "Extraction"). */
export const ZH_SPLIT_SEED = "hippocampus-zh-split-1";

/** FNV-1a, 32 bits, over the UTF-8 bytes of the text. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(text)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h >>> 0;
}

/**
 * The test split of conversations added to the set together, fixed before anything is measured on
 * them: in ascending order of FNV-1a of `<seed>:<id>` (the id breaks ties), conversations go to
 * test until it holds a fifth of their facts; the rest are dev.
 */
export function seededTestSplit(list: Pick<ZhConversation, "id" | "facts">[], seed: string): string[] {
  const total = list.reduce((n, c) => n + c.facts.length, 0);
  const order = [...list].sort(
    (a, b) => fnv1a32(`${seed}:${a.id}`) - fnv1a32(`${seed}:${b.id}`) || (a.id < b.id ? -1 : 1),
  );
  const test: string[] = [];
  let facts = 0;
  for (const c of order) {
    if (5 * facts >= total) break;
    test.push(c.id);
    facts += c.facts.length;
  }
  return test.sort();
}
