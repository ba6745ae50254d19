import { describe, expect, it } from "vitest";
import raw from "../../bench/person/lives.json?raw";
import { CATEGORIES, factsOf, LANGS, type Life, PersonDataError, parseLives } from "../../scripts/lib/person-data";
import { generateLives, PERSON_SEED, resolveDate } from "../../scripts/lib/person-lives";
import {
  HIT_K,
  onDay,
  outcomeFacts,
  type Returned,
  scoreQuestion,
  splitLives,
  summarizePerson,
} from "../../scripts/lib/person-score";

const committed = () => parseLives(JSON.parse(raw));

describe("bench:person data", () => {
  it("the committed file is valid and large enough: ≥ 40 lives, half in each language, ≥ 300 questions, every category in both", () => {
    const file = committed();
    expect(file.lives.length).toBeGreaterThanOrEqual(40);
    const en = file.lives.filter((l) => l.lang === "en").length;
    expect(Math.abs(en - (file.lives.length - en))).toBeLessThanOrEqual(2);
    const questions = file.lives.flatMap((l) => l.questions.map((q) => ({ ...q, lang: l.lang })));
    expect(questions.length).toBeGreaterThanOrEqual(300);
    for (const c of CATEGORIES)
      for (const lang of LANGS)
        expect(
          questions.filter((q) => q.category === c && q.lang === lang).length,
          `${c}/${lang}`,
        ).toBeGreaterThanOrEqual(10);
  });

  it("every question's expected and replaced facts are stated in its own life", () => {
    for (const life of committed().lives) {
      const keys = new Set(factsOf(life).map((f) => f.key));
      for (const q of life.questions)
        for (const k of [...q.expect, ...(q.stale ?? [])]) expect(keys, `${q.id} → ${k}`).toContain(k);
    }
  });

  it("no question repeats the sentence that answers it", () => {
    for (const life of committed().lives) {
      const text = new Map<string, string>();
      for (const s of life.sessions) for (const t of s.turns) for (const f of t.facts ?? []) text.set(f.key, t.text);
      for (const q of life.questions)
        for (const k of q.expect)
          expect(text.get(k)!.toLowerCase()).not.toContain(q.question.toLowerCase().replace(/[?？]$/, ""));
    }
  });

  it("is exactly what the seed generates, every time", () => {
    expect(generateLives(PERSON_SEED)).toEqual(committed());
    expect(generateLives(7)).toEqual(generateLives(7));
    expect(generateLives(7)).not.toEqual(generateLives(8));
  });

  it("refuses a question naming a fact its life never states, naming the life, the question and the fact", () => {
    const file = committed();
    const life: Life = structuredClone(file.lives[0]);
    life.questions[0] = { ...life.questions[0], expect: ["home.9"] };
    expect(() => parseLives({ ...file, lives: [life] })).toThrowError(PersonDataError);
    expect(() => parseLives({ ...file, lives: [life] })).toThrowError(
      new RegExp(`${life.id}: question ${life.questions[0].id} names fact home\\.9, which the life never states`),
    );
  });

  it("refuses a malformed field with its path and the rule", () => {
    const file = committed();
    const life = structuredClone(file.lives[0]);
    life.sessions[0].date = "3 May";
    expect(() => parseLives({ ...file, lives: [life] })).toThrowError(
      /lives\.0\.sessions\.0\.date: must be a date YYYY-MM-DD/,
    );
    const q = structuredClone(file.lives[0]);
    q.questions = q.questions.map((x) => (x.category === "knowledge-update" ? { ...x, stale: undefined } : x));
    expect(() => parseLives({ ...file, lives: [q] })).toThrowError(/knowledge-update needs stale/);
  });

  it("refuses an abstention question that expects something, and a marker the turn does not hold", () => {
    const file = committed();
    const life = structuredClone(file.lives[0]);
    const abst = life.questions.findIndex((q) => q.category === "abstention");
    life.questions[abst] = { ...life.questions[abst], expect: [factsOf(life)[0].key] };
    const turn = life.sessions[0].turns.find((t) => t.facts?.length)!;
    turn.facts![0] = { ...turn.facts![0], marker: "zebra crossing" };
    const err = (() => {
      try {
        parseLives({ ...file, lives: [life] });
      } catch (e) {
        return (e as Error).message;
      }
      return "";
    })();
    expect(err).toMatch(/abstention expects nothing/);
    expect(err).toMatch(/marker "zebra crossing" is not in the turn/);
  });
});

describe("bench:person relative dates", () => {
  it("resolves against the day they were said, weeks from Monday", () => {
    // 2025-05-28 is a Wednesday; 2025-06-01 a Sunday.
    expect(resolveDate("2025-05-28", { kind: "days", n: 1 })).toBe("2025-05-29");
    expect(resolveDate("2025-05-28", { kind: "days", n: 14 })).toBe("2025-06-11");
    expect(resolveDate("2025-05-28", { kind: "weekday-next-week", weekday: 5 })).toBe("2025-06-06");
    expect(resolveDate("2025-05-28", { kind: "weekday-next-week", weekday: 2 })).toBe("2025-06-03");
    expect(resolveDate("2025-06-01", { kind: "weekday-next-week", weekday: 5 })).toBe("2025-06-06");
    expect(resolveDate("2025-06-02", { kind: "weekday-next-week", weekday: 5 })).toBe("2025-06-13");
    expect(resolveDate("2025-05-28", { kind: "day-of-month", day: 20 })).toBe("2025-06-20");
    expect(resolveDate("2025-05-03", { kind: "day-of-month", day: 20 })).toBe("2025-05-20");
    expect(resolveDate("2024-02-10", { kind: "end-of-month" })).toBe("2024-02-29");
    expect(resolveDate("2024-12-10", { kind: "next-month-day", day: 3 })).toBe("2025-01-03");
  });
});

describe("bench:person split", () => {
  const lives = () => committed().lives;

  it("is deterministic, disjoint, complete and half of each language", () => {
    const all = lives();
    const dev = splitLives(all, PERSON_SEED, "dev").map((l) => l.id);
    const test = splitLives(all, PERSON_SEED, "test").map((l) => l.id);
    expect(splitLives(all, PERSON_SEED, "dev").map((l) => l.id)).toEqual(dev);
    expect(dev.filter((id) => test.includes(id))).toEqual([]);
    expect([...dev, ...test].sort()).toEqual(all.map((l) => l.id).sort());
    for (const lang of LANGS) {
      const n = all.filter((l) => l.lang === lang).length;
      expect(dev.filter((id) => id.startsWith(`${lang}-`)).length).toBe(Math.ceil(n / 2));
    }
  });

  it("does not depend on the order of the file, and changes with the seed", () => {
    const all = lives();
    const dev = new Set(splitLives(all, PERSON_SEED, "dev").map((l) => l.id));
    expect(new Set(splitLives([...all].reverse(), PERSON_SEED, "dev").map((l) => l.id))).toEqual(dev);
    expect(new Set(splitLives(all, PERSON_SEED + 1, "dev").map((l) => l.id))).not.toEqual(dev);
  });
});

describe("bench:person facts of a transcript", () => {
  const turns = [
    { role: "user" as const, text: "Hi again!" },
    { role: "assistant" as const, text: "Sure, go ahead." },
    {
      role: "user" as const,
      text: "I drink oolong every morning. Hmm, scratch that. I switched to green tea.",
      facts: [
        { key: "habit1.1", marker: "oolong" },
        { key: "habit1.2", marker: "Green Tea" },
      ],
    },
    { role: "user" as const, text: "I live in Porto.", facts: [{ key: "home.1" }] },
  ];

  it("attributes outcomes by their 1-based turn, and by marker when one turn states several facts", () => {
    expect(
      outcomeFacts(turns, [
        { content: "I drink oolong every morning.", id: "m1", turn: 3 },
        { content: "I switched to green tea.", id: "m2", turn: 3 },
        { content: "The user lives in Porto.", id: "m3", turn: 4 },
      ]),
    ).toEqual([
      ["habit1.1", "m1"],
      ["habit1.2", "m2"],
      ["home.1", "m3"],
    ]);
  });

  it("gives a memory holding both markers to both facts, and nothing to rejected or unplaced outcomes", () => {
    expect(
      outcomeFacts(turns, [
        { content: "Drinks oolong, now green tea", id: "m1", turn: 3 },
        { content: "I live in Porto.", id: null, turn: 4 },
        { content: "I live in Porto.", id: "m9", turn: null },
        { content: "Hi again!", id: "m8", turn: 1 },
        { content: "beyond the transcript", id: "m7", turn: 9 },
      ]),
    ).toEqual([
      ["habit1.1", "m1"],
      ["habit1.2", "m1"],
    ]);
  });
});

describe("bench:person scoring", () => {
  const m = (id: string, event_time: string | null = null): Returned => ({ id, event_time });
  const facts = new Map([
    ["home.1", ["a"]],
    ["home.2", ["b"]],
    ["event1", ["e"]],
    ["both", ["x", "y"]],
  ]);
  const q = (category: (typeof CATEGORIES)[number], expect: string[], extra = {}) => ({
    id: "q",
    category,
    question: "?",
    expect,
    ...extra,
  });

  it("single fact: a hit within the first K, by any of the fact's memories", () => {
    expect(scoreQuestion("en", q("single-fact", ["home.1"]), [m("z"), m("a")], facts).ok).toBe(true);
    expect(scoreQuestion("en", q("single-fact", ["both"]), [m("y")], facts).ok).toBe(true);
    const far = [...Array(HIT_K).keys()].map((i) => m(`n${i}`));
    expect(scoreQuestion("en", q("single-fact", ["home.1"]), [...far, m("a")], facts)).toMatchObject({
      ok: false,
      ranks: [HIT_K + 1],
    });
    expect(scoreQuestion("en", q("preference", ["gone"]), [m("a")], facts)).toMatchObject({
      ok: false,
      why: "not stored: gone",
    });
  });

  it("knowledge update: the current fact must rank above the one it replaced", () => {
    const ku = q("knowledge-update", ["home.2"], { stale: ["home.1"] });
    expect(scoreQuestion("en", ku, [m("b"), m("a")], facts).ok).toBe(true);
    expect(scoreQuestion("en", ku, [m("b")], facts).ok).toBe(true);
    expect(scoreQuestion("en", ku, [m("a"), m("b")], facts)).toMatchObject({ ok: false, staleRanks: [1] });
    // One memory holding both the old and the new fact is not an update.
    const merged = new Map([...facts, ["home.1", ["b"]]]);
    expect(scoreQuestion("en", ku, [m("b")], merged).ok).toBe(false);
  });

  it("temporal: the expected memory's event_time on the resolved day, within tolerance", () => {
    const t = q("temporal", ["event1"], { date: "2025-06-06" });
    expect(scoreQuestion("zh", t, [m("e", "2025-06-06T00:00:00.000Z")], facts)).toMatchObject({
      ok: true,
      dateOk: true,
    });
    expect(scoreQuestion("zh", t, [m("e", "2025-05-28T12:00:00.000Z")], facts)).toMatchObject({
      ok: false,
      dateOk: false,
    });
    expect(scoreQuestion("zh", t, [m("e", null)], facts).ok).toBe(false);
    const loose = q("temporal", ["event1"], { date: "2025-06-30", tolerance_days: 2 });
    expect(scoreQuestion("zh", loose, [m("e", "2025-06-28T08:00:00.000Z")], facts).ok).toBe(true);
    expect(scoreQuestion("zh", loose, [m("e", "2025-06-27T08:00:00.000Z")], facts).ok).toBe(false);
    expect(onDay("2025-06-06T23:59:00.000Z", "2025-06-06")).toBe(true);
  });

  it("abstention: success only when nothing comes back", () => {
    expect(scoreQuestion("zh", q("abstention", []), [], facts).ok).toBe(true);
    expect(scoreQuestion("zh", q("abstention", []), [m("a")], facts)).toMatchObject({ ok: false, returned: 1 });
  });

  it("sums up per category, language and both", () => {
    const rows = [
      scoreQuestion("en", q("single-fact", ["home.1"]), [m("a")], facts),
      scoreQuestion("zh", q("single-fact", ["home.1"]), [], facts),
      scoreQuestion("zh", q("abstention", []), [], facts),
    ];
    const s = summarizePerson(rows);
    expect(s.overall).toEqual({ questions: 3, ok: 2, rate: 2 / 3 });
    expect(s.byCategory["single-fact"]).toEqual({ questions: 2, ok: 1, rate: 0.5 });
    expect(s.byCategoryLang["single-fact"]).toEqual({
      en: { questions: 1, ok: 1, rate: 1 },
      zh: { questions: 1, ok: 0, rate: 0 },
    });
    expect(s.byLang.zh).toEqual({ questions: 2, ok: 1, rate: 0.5 });
    const t = summarizePerson([
      scoreQuestion(
        "en",
        q("temporal", ["event1"], { date: "2025-06-06" }),
        [m("e", "2025-06-06T00:00:00.000Z")],
        facts,
      ),
      scoreQuestion("en", q("temporal", ["home.1"]), [], facts),
    ]);
    expect(t.temporalParts).toEqual({
      dated: { questions: 1, ok: 1, rate: 1 },
      past: { questions: 1, ok: 0, rate: 0 },
    });
  });
});
