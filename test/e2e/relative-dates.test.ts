/**
 * Dates, not relative words, over /mcp with the MCP SDK client: every write path (save_memory,
 * update_memory, summarize_conversation, the import route, the dashboard's edit) turns "tomorrow",
 * "next Friday", 「后天」「下周五」「两周后」 into the memory's event_time, read against the message's date
 * or now (in the dashboard reader's time zone, else the deployment's TIME_ZONE, UTC here); the text
 * keeps the person's words; recall and the memory-context prompt show the date.
 */
import { exports } from "cloudflare:workers";
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { wallClock } from "../../src/memory/text/relative-dates";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { csrfOf, signedInPerson } from "../helpers/dashboard-browser";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();
const DAY_MS = 86_400_000;

type View = { id: string; content: string; event_time: string | null };
type Saved = { status: string; id: string; memory: View };
type Summary = { outcomes: { content: string; status: string; id: string | null }[] };

async function newClient(): Promise<{ client: Client; key: string }> {
  const { key } = await createKey({ user: uniqueUser("dates") });
  return { client: await connect(key), key };
}

/** The day `days` after today in `zone`, as the event_time recall shows (midnight UTC of that day). */
const dayAfter = (days: number, zone: string, at = Date.now()) =>
  new Date(Math.floor(wallClock(at, zone) / DAY_MS) * DAY_MS + days * DAY_MS).toISOString();

/** The answer may straddle midnight: the day counted before the call, or after it. */
function daysAround(days: number, zone: string, run: () => Promise<unknown>): Promise<string[]> {
  const before = dayAfter(days, zone);
  return run().then(() => [...new Set([before, dayAfter(days, zone)])]);
}

async function save(client: Client, args: Record<string, unknown>): Promise<Saved> {
  const r = await callTool(client, "save_memory", args);
  expect(r.isError, textOf(r)).toBeFalsy();
  return r.structuredContent as Saved;
}

async function fetchView(client: Client, id: string): Promise<View> {
  const r = await callTool(client, "list_memories", { limit: 50 });
  const found = (r.structuredContent as { memories: View[] }).memories.find((m) => m.id === id);
  expect(found).toBeDefined();
  return found!;
}

describe("save_memory: relative words become the event day", () => {
  it("'the day after tomorrow' in the deployment's zone; the text keeps the words; recall and the prompt show the day", async () => {
    const { client } = await newClient();
    let saved: Saved | undefined;
    const expected = await daysAround(2, "UTC", async () => {
      saved = await save(client, { content: "Dinner with Ana at the harbour the day after tomorrow" });
    });
    expect(saved!.memory.content).toBe("Dinner with Ana at the harbour the day after tomorrow");
    expect(expected).toContain(saved!.memory.event_time);
    const day = saved!.memory.event_time!.slice(0, 10);
    const recalled = await callTool(client, "recall_memory", { query: "when is dinner with Ana?", limit: 5 });
    expect(textOf(recalled)).toContain(`event ${day}`);
    const prompt = await client.getPrompt({ name: "memory-context", arguments: { topic: "dinner with Ana" } });
    expect((prompt.messages[0].content as { text: string }).text).toContain(`event ${day}`);
  });

  it("「后天」 in Chinese", async () => {
    const { client } = await newClient();
    let saved: Saved | undefined;
    const expected = await daysAround(2, "UTC", async () => {
      saved = await save(client, { content: "后天和小雅去看牙医" });
    });
    expect(saved!.memory.content).toBe("后天和小雅去看牙医");
    expect(expected).toContain(saved!.memory.event_time);
  });

  it("an event_time given with the memory wins over the words", async () => {
    const { client } = await newClient();
    const saved = await save(client, { content: "Flight to Oslo tomorrow", event_time: "2027-02-01" });
    expect(saved.memory.event_time).toBe("2027-02-01T00:00:00.000Z");
  });

  it("a bare or recurring weekday names no day", async () => {
    const { client } = await newClient();
    expect((await save(client, { content: "I go swimming every Friday" })).memory.event_time).toBeNull();
    expect((await save(client, { content: "我每周三去游泳" })).memory.event_time).toBeNull();
  });
});

describe("the dashboard's edit: new words read in the reader's time zone", () => {
  it("'tomorrow' is Kiritimati's tomorrow for one reader and Baker Island's for another (26 hours apart)", async () => {
    const { b, key } = await signedInPerson();
    const client = await connect(key);
    const edited: Record<string, string | null> = {};
    const expected: Record<string, string[]> = {};
    for (const zone of ["Pacific/Kiritimati", "Etc/GMT+12"]) {
      const saved = await save(client, { content: `Water the plants (${zone})` });
      expect(saved.memory.event_time).toBeNull();
      await b.html(`/dashboard?tz=${encodeURIComponent(zone)}`);
      const page = await b.html(`/dashboard/memories/${saved.id}`);
      expected[zone] = await daysAround(1, zone, async () => {
        const res = await b.post(`/dashboard/memories/${saved.id}/edit`, {
          csrf: csrfOf(page),
          content: `Water the plants tomorrow (${zone})`,
        });
        expect(res.status).toBe(303);
      });
      edited[zone] = (await fetchView(client, saved.id)).event_time;
    }
    expect(expected["Pacific/Kiritimati"]).toContain(edited["Pacific/Kiritimati"]);
    expect(expected["Etc/GMT+12"]).toContain(edited["Etc/GMT+12"]);
    expect(edited["Pacific/Kiritimati"]).not.toBe(edited["Etc/GMT+12"]);
  });
});

describe("update_memory: new words name a new day", () => {
  it("'tomorrow' → 'the day after tomorrow' moves the event; a typo fix keeps it", async () => {
    const { client } = await newClient();
    const saved = await save(client, { content: "Call the plumbr tomorrow" });
    const first = saved.memory.event_time;
    expect(first).not.toBeNull();
    const typo = await callTool(client, "update_memory", { id: saved.id, content: "Call the plumber tomorrow" });
    expect(typo.isError, textOf(typo)).toBeFalsy();
    expect((await fetchView(client, saved.id)).event_time).toBe(first);
    const expected = await daysAround(2, "UTC", async () => {
      const moved = await callTool(client, "update_memory", {
        id: saved.id,
        content: "Call the plumber the day after tomorrow",
      });
      expect(moved.isError, textOf(moved)).toBeFalsy();
    });
    const after = await fetchView(client, saved.id);
    expect(after.content).toBe("Call the plumber the day after tomorrow");
    expect(expected).toContain(after.event_time);
  });
});

describe("summarize_conversation: days read from the conversation's date", () => {
  it("「下周五」 and 「两周后」 said on Friday 4 December 2026", async () => {
    const { client } = await newClient();
    const r = await callTool(client, "summarize_conversation", {
      transcript: "User: 我下周五要去杭州出差。\nAssistant: 好的。\nUser: 我两周后要搬到新公寓。",
      event_time: "2026-12-04T10:00:00Z",
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const ids = (r.structuredContent as Summary).outcomes.filter((o) => o.id !== null).map((o) => o.id!);
    const views = await Promise.all(ids.map((id) => fetchView(client, id)));
    const byWords = Object.fromEntries(views.map((v) => [v.content, v.event_time]));
    expect(byWords).toMatchObject({
      "我下周五要去杭州出差。": "2026-12-11T00:00:00.000Z",
      "我两周后要搬到新公寓。": "2026-12-18T00:00:00.000Z",
    });
  });

  it("'next Friday' in English, and 'tomorrow' read from now when the conversation has no date", async () => {
    const { client } = await newClient();
    const dated = await callTool(client, "summarize_conversation", {
      transcript: "User: I have a job interview at Zalando next Friday.",
      event_time: "2026-12-04T10:00:00Z",
    });
    expect(dated.isError, textOf(dated)).toBeFalsy();
    const [first] = (dated.structuredContent as Summary).outcomes;
    expect((await fetchView(client, first.id!)).event_time).toBe("2026-12-11T00:00:00.000Z");
    let undated: Summary | undefined;
    const expected = await daysAround(1, "UTC", async () => {
      const r = await callTool(client, "summarize_conversation", {
        transcript: "User: I am seeing my dentist tomorrow about a cracked tooth.",
      });
      expect(r.isError, textOf(r)).toBeFalsy();
      undated = r.structuredContent as Summary;
    });
    const view = await fetchView(client, undated!.outcomes[0].id!);
    expect(view.content).toContain("tomorrow");
    expect(expected).toContain(view.event_time);
  });
});

describe("import: days read from each line's own date", () => {
  it("'tomorrow' and 「两周后」 against created_at", async () => {
    const { client, key } = await newClient();
    const body = [
      { content: "Ana's wedding rehearsal is tomorrow", created_at: "2026-03-02T09:00:00Z", external_id: "a" },
      { content: "两周后去成都看演唱会", created_at: "2026-03-02T09:00:00Z", external_id: "b" },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n");
    const res = await exports.default.fetch(
      new Request("http://localhost/v1/import", {
        method: "POST",
        headers: { host: "localhost", authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
        body,
      }),
    );
    expect(res.status).toBe(200);
    const items = ((await res.json()) as { items: { id: string; external_id: string }[] }).items;
    const view = (ext: string) => fetchView(client, items.find((i) => i.external_id === ext)!.id);
    expect((await view("a")).event_time).toBe("2026-03-03T00:00:00.000Z");
    expect((await view("b")).event_time).toBe("2026-03-16T00:00:00.000Z");
  });
});
