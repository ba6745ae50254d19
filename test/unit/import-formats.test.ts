import { describe, expect, it } from "vitest";
import { importScopeArgs } from "../../src/access/import-owner";
import type { Principal } from "../../src/access/principal";
import { convertMem0, mem0UserIds } from "../../src/memory/import/formats/mem0-format";
import { convertText } from "../../src/memory/import/formats/text-format";
import { writtenDate } from "../../src/memory/text/written-date";

const values = (body: string, convert: typeof convertText) => {
  const out = convert(body);
  if (!out.ok) throw new Error(JSON.stringify(out.errors));
  return out.records.map((r) => r.value);
};

describe("mem0 import", () => {
  const doc = JSON.stringify({
    results: [
      {
        id: "a1",
        memory: "Likes tea",
        user_id: "alex",
        created_at: "2024-07-20T01:30:56.121946-07:00",
        updated_at: "2024-08-01T09:00:00.5-07:00",
      },
      { id: "a2", memory: "Walks the dog", user_id: "alex", updated_at: null },
    ],
  });

  it("keeps updated_at beside created_at", () => {
    expect(values(doc, convertMem0)).toEqual([
      {
        content: "Likes tea",
        created_at: "2024-07-20T08:30:56.121Z",
        updated_at: "2024-08-01T16:00:00.500Z",
        external_id: "mem0:a1",
      },
      { content: "Walks the dog", external_id: "mem0:a2" },
    ]);
  });

  it("reports the users the file names", () => {
    expect(mem0UserIds(doc)).toEqual(["alex"]);
    expect(
      mem0UserIds(
        JSON.stringify([
          { memory: "x", user_id: 7 },
          { memory: "y", user_id: "b" },
        ]),
      ),
    ).toEqual(["7", "b"]);
    expect(mem0UserIds("not json")).toEqual([]);
  });
});

describe("whose a mem0 file is (app keys)", () => {
  const app: Principal = { accountId: "acc", scope: "app", appName: "shop", keyId: "k1" } as Principal;
  const person: Principal = { accountId: "acc", scope: "user", userId: "nova", keyId: "k2" } as Principal;

  it("the file's one user_id names an app key's end user when ?user_id= is absent", () => {
    expect(importScopeArgs(app, {}, ["alex"])).toEqual({ user_id: "alex" });
    expect(importScopeArgs(app, { user_id: "alex" }, ["alex"])).toEqual({ user_id: "alex" });
  });

  it("refuses another user's memories and a file of several users, naming user_id", () => {
    expect(() => importScopeArgs(app, { user_id: "bob" }, ["alex"])).toThrow(/user "alex", not only of "bob"/);
    expect(() => importScopeArgs(app, {}, ["alex", "bob"])).toThrow(/several users \("alex", "bob"\)/);
    expect(() => importScopeArgs(app, {}, ["has space"])).toThrow(/user_id "has space" must be/);
  });

  it("a user key names its user: the file's user_id is not read", () => {
    expect(importScopeArgs(person, {}, ["alex", "bob"])).toEqual({});
  });
});

describe("text and Markdown import", () => {
  it("a date written in a line becomes its event_time", () => {
    expect(
      values(
        "- Dentist appointment on 2027-01-14\n- 2027年2月3日去杭州出差\n- Met Ana on March 5, 2026\n- No date",
        convertText,
      ),
    ).toEqual([
      { content: "Dentist appointment on 2027-01-14", event_time: "2027-01-14" },
      { content: "2027年2月3日去杭州出差", event_time: "2027-02-03" },
      { content: "Met Ana on March 5, 2026", event_time: "2026-03-05" },
      { content: "No date" },
    ]);
  });

  it("a paragraph after the last heading's list is not under that heading", () => {
    const md = "# Food\n- Vegan\n- Allergic to peanuts\n\nI moved to Porto in 2026.\n";
    expect(values(md, convertText)).toEqual([
      { content: "Vegan", category: "food" },
      { content: "Allergic to peanuts", category: "food" },
      { content: "I moved to Porto in 2026." },
    ]);
  });

  it("paragraphs under a heading without a list stay under it", () => {
    expect(values("## Work\nI lead the payments team.\n\nI manage five people.", convertText)).toEqual([
      { content: "I lead the payments team.", category: "work" },
      { content: "I manage five people.", category: "work" },
    ]);
  });
});

describe("writtenDate", () => {
  it.each([
    ["on 2027-01-14", "2027-01-14"],
    ["at 2027-01-14T10:30:00Z", "2027-01-14"],
    ["2027-02-30 is not a day", null],
    ["order 2024-0115-7788", null],
    ["14 January 2027 and 2026-01-01", "2027-01-14"],
    ["Jan 3rd, 2025", "2025-01-03"],
    ["2027年1月14日", "2027-01-14"],
    ["version 1.2.3", null],
  ])("%s → %s", (line, date) => {
    expect(writtenDate(line)).toBe(date);
  });
});
