import { describe, expect, it } from "vitest";
import { baselineTokens, bm25Index } from "../../scripts/lib/bench-bm25";
import { askedOnShift, loadDataset } from "../../scripts/lib/bench-data";
import { buildDataset, seededRandom } from "../../scripts/lib/zh-dataset/build-dataset";
import { parseUsers } from "../../scripts/lib/zh-dataset/parse-users";

const SOURCE = `
# user zh-a 林晓
@2024-05-02 妈妈
林晓：五一假期去了黄山。
妈妈：山顶冷吗？
? 我五一去哪里玩了？ => 1
@2024-05-09 妈妈
林晓：我养了一只橘猫。
? 我之前说过去哪里玩？ => 2024-05-02#1
# user zh-b 王芳
# asked_on 2024-06-20
@2024-06-13 小周
王芳：上周我去了趟杭州。
? 上周我去哪了？ => 1
`;

describe("Chinese dataset sources", () => {
  it("parses users, sessions, turns and questions with evidence ids", () => {
    const [a, b] = parseUsers("t.txt", SOURCE);
    expect(a.sampleId).toBe("zh-a");
    expect(a.sessions.map((s) => s.turns.length)).toEqual([2, 1]);
    expect(a.questions.map((q) => q.evidence)).toEqual([["2024-05-02#1"], ["2024-05-02#1"]]);
    expect(b.askedOn).toBe("2024-06-20");
  });

  it("names the file, line and rule of a malformed line, and refuses unknown evidence", () => {
    expect(() => parseUsers("t.txt", "# user zh-a 林晓\n林晓：你好")).toThrow("t.txt:2: a turn or question before");
    expect(() => parseUsers("t.txt", "# user zh-a 林晓\n@2024-01-01 妈妈\n林晓 你好")).toThrow(
      /t\.txt:3: .*full-width colon/,
    );
    expect(() => parseUsers("t.txt", "# user zh-a 林晓\n@2024-01-01 妈妈\n林晓：你好\n? 问题 => 4")).toThrow(
      "unknown evidence 2024-01-01#4",
    );
  });

  it("builds the same files for the same seed, keeps evidence on the same turns, splits users apart", () => {
    const users = [
      ...parseUsers("t.txt", SOURCE),
      ...Array.from({ length: 8 }, (_, i) => parseUsers("t.txt", SOURCE.replace("zh-a", `zh-x${i}`))[0]),
    ];
    const one = buildDataset(users, 7);
    expect(buildDataset(users, 7)).toEqual(one);
    const all = [...one.dev, ...one.test];
    expect(all).toHaveLength(users.length);
    expect(one.test.some((s) => s.asked_on === "2024-06-20")).toBe(true);
    expect(one.test.length).toBeGreaterThanOrEqual(2);
    for (const sample of all) {
      const text = new Map(sample.memories.map((m) => [m.id, m.text]));
      for (const q of sample.qa) for (const e of q.evidence) expect(text.get(e)).toMatch(/黄山|杭州/);
    }
  });

  it("gives every question a category: the one its line names, else by whether the user has an asked_on day", () => {
    const source = `${SOURCE}\n# user zh-c 李雷\n@2024-07-01 妈妈\n李雷：我表哥李明在杭州工作。\n@2024-07-08 妈妈\n李雷：李明下个月结婚。\n?[multi-hop] 我表哥什么时候结婚？ => 2024-07-01#1, 1\n`;
    const users = parseUsers("t.txt", source);
    expect(users[2].questions[0]).toEqual({
      question: "我表哥什么时候结婚？",
      evidence: ["2024-07-01#1", "2024-07-08#1"],
      category: "multi-hop",
    });
    expect(users[0].questions[0].category).toBeNull();
    const { dev, test } = buildDataset(users, 7);
    const categories = Object.fromEntries([...dev, ...test].map((s) => [s.sample_id, s.qa.map((q) => q.category)]));
    expect(categories).toEqual({
      "zh-a": ["single-hop", "single-hop"],
      "zh-b": ["relative-date"],
      "zh-c": ["multi-hop"],
    });
    expect(() => parseUsers("t.txt", "# user zh-a 林晓\n@2024-01-01 妈妈\n林晓：你好\n?[Multi hop] 问题 => 1")).toThrow(
      "t.txt:4: a category is",
    );
  });

  it("frames questions with a named category from their own stream: adding one leaves the others as they were", () => {
    const users = parseUsers("t.txt", SOURCE);
    const tagged = parseUsers(
      "t.txt",
      SOURCE.replace(
        "? 我之前说过去哪里玩？ => 2024-05-02#1",
        "? 我之前说过去哪里玩？ => 2024-05-02#1\n?[multi-hop] 我养了什么？ => 1",
      ),
    );
    const [before, after] = [buildDataset(users, 7), buildDataset(tagged, 7)];
    const strip = (d: typeof after) =>
      [...d.dev, ...d.test].map((s) => ({ ...s, qa: s.qa.filter((q) => q.category !== "multi-hop") }));
    expect(strip(after)).toEqual(strip(before));
    expect([...after.dev, ...after.test].flatMap((s) => s.qa).filter((q) => q.category === "multi-hop")).toHaveLength(
      1,
    );
  });

  it("draws the same numbers from the same seed", () => {
    const [a, b] = [seededRandom(3), seededRandom(3)];
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});

describe("asked_on in the generic format", () => {
  const now = Date.UTC(2026, 10, 30, 15, 0);
  it("shifts a sample's dates by whole days so that asked_on is today, and leaves others alone", () => {
    const ds = loadDataset(
      [
        {
          sample_id: "a",
          asked_on: "2024-06-20",
          memories: [{ id: "1", date: "2024-06-13", text: "x" }],
          qa: [{ question: "q", evidence: ["1"] }],
        },
        { sample_id: "b", memories: [{ id: "1", date: "2024-06-13", text: "x" }], qa: [] },
      ],
      now,
    );
    expect(ds.samples[0].memories[0].eventTime).toBe("2026-11-23T00:00:00.000Z");
    expect(ds.samples[1].memories[0].eventTime).toBe("2024-06-13T00:00:00.000Z");
  });

  it("refuses an asked_on that is not a date", () => {
    expect(() => askedOnShift("June 20", now)).toThrow("asked_on must be a date YYYY-MM-DD");
    expect(askedOnShift(undefined, now)).toBe(0);
  });
});

describe("BM25 baseline", () => {
  it("cuts CJK runs into every character bigram and stems English words without stop words", () => {
    expect(baselineTokens("我的猫 running in the park")).toEqual(["我的", "的猫", "run", "park"]);
    expect(baselineTokens("猫，狗")).toEqual(["猫", "狗"]);
  });

  it("ranks the memory sharing the rarest bigrams first", () => {
    const memory = (externalId: string, content: string) => ({ externalId, content, eventTime: null, source: "s" });
    const index = bm25Index([
      memory("a", "林晓：我今天去了黄山，看到了日出"),
      memory("b", "林晓：我今天去上班了"),
      memory("c", "妈妈：晚饭吃什么"),
    ]);
    expect(index.search("我去黄山看日出", 10)[0]).toBe("a");
    expect(index.search("完全无关", 10)).toEqual([]);
  });
});
