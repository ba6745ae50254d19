/**
 * summarize_conversation over /mcp with transcripts that name their speakers: only the user's
 * words become memories, each memory keeps the turn it came from, and the conversation's date.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

type Outcome = { content: string; status: string; id: string | null; turn: number | null; superseded_ids: string[] };
type Summary = { messages: number; source: string; outcomes: Outcome[] };

async function newClient() {
  const { key } = await createKey({ user: uniqueUser("speakers") });
  return connect(key);
}

async function derivedFrom(id: string): Promise<string[]> {
  const row = await env.DB.prepare("SELECT derived_from FROM memories WHERE id = ?")
    .bind(id)
    .first<{ derived_from: string }>();
  return JSON.parse(row?.derived_from ?? "[]");
}

describe("summarize_conversation and speakers", () => {
  it("an export naming its assistant (ChatGPT:) saves the user's move, never the assistant's words", async () => {
    const client = await newClient();
    const r = await callTool(client, "summarize_conversation", {
      transcript:
        "User: Hi! I just moved to Lisbon last month for a new job at a fintech startup.\nChatGPT: Noted! I'll remember that.",
      source: "chat-lisbon",
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const s = r.structuredContent as Summary;
    expect(s.outcomes.map((o) => [o.content, o.status, o.turn])).toEqual([
      ["I just moved to Lisbon last month for a new job at a fintech startup.", "created", 1],
    ]);
    expect(await derivedFrom(s.outcomes[0].id!)).toEqual(["source:chat-lisbon", "source:chat-lisbon#turn=1"]);
    const listed = (await callTool(client, "list_memories", {})).structuredContent as {
      memories: { content: string }[];
    };
    expect(listed.memories.map((m) => m.content).join(" ")).not.toContain("remember that");
  });

  it("a chat between two names takes user_name, keeps each memory's turn and dates it from the conversation's date", async () => {
    const client = await newClient();
    const transcript = [
      "Melanie: Hey Caroline! How have you been?",
      "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
      "Melanie: I painted a lake sunrise last year.",
      "Caroline: I'm keen on counseling or working in mental health.",
    ].join("\n");
    const r = await callTool(client, "summarize_conversation", {
      transcript,
      user_name: "Caroline",
      event_time: "2023-05-08T13:56:00Z",
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const s = r.structuredContent as Summary;
    expect(s.messages).toBe(4);
    expect(s.outcomes.map((o) => o.turn)).toEqual([2, 4]);
    expect(s.outcomes.map((o) => o.content).join(" ")).not.toContain("lake sunrise");
    const recalled = (await callTool(client, "recall_memory", { query: "support group", limit: 5 }))
      .structuredContent as {
      memories: { content: string; event_time: string | null }[];
    };
    expect(recalled.memories[0].content).toContain("support group");
    // "yesterday", said on 2023-05-08: the fact happened the day before the conversation.
    expect(recalled.memories[0].event_time).toBe("2023-05-07T00:00:00.000Z");
  });

  it("a chat between two names without user_name is refused with the field named, and nothing is saved", async () => {
    const client = await newClient();
    const r = await callTool(client, "summarize_conversation", {
      transcript: "Jon: I lost my job.\nGina: I opened a store.",
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/user_name/);
    const listed = (await callTool(client, "list_memories", {})).structuredContent as { memories: unknown[] };
    expect(listed.memories).toEqual([]);
  });

  it("a fact from a transcript naming its user keeps the name, so a question about them by name is answered", async () => {
    const client = await newClient();
    const chat = (line: string) =>
      callTool(client, "summarize_conversation", {
        transcript: `Melanie: How was your week?\nCaroline: ${line}`,
        user_name: "Caroline",
      });
    const first = (await chat("I researched adoption agencies this week.")).structuredContent as Summary;
    expect(first.outcomes.map((o) => [o.content, o.status])).toEqual([
      ["Caroline: I researched adoption agencies this week.", "created"],
    ]);
    // No memory holds "Caroline" but as the speaker's label: without it recall abstained here.
    const recalled = (await callTool(client, "recall_memory", { query: "What did Caroline research?" }))
      .structuredContent as { memories: { id: string }[] };
    expect(recalled.memories.map((m) => m.id)).toEqual([first.outcomes[0].id]);
    const other = (await callTool(client, "recall_memory", { query: "What did Melanie paint at the lake?" }))
      .structuredContent as { memories: unknown[] };
    expect(other.memories).toEqual([]);
  });

  it("a labelled fact contradicted by a later one is superseded, and its other facts stay as the remainder", async () => {
    const client = await newClient();
    const chat = async (line: string) =>
      (
        await callTool(client, "summarize_conversation", {
          transcript: `Melanie: Any news?\nCaroline: ${line}`,
          user_name: "Caroline",
        })
      ).structuredContent as Summary;
    const lived = await chat("I live in Lisbon and teach yoga on weekends.");
    const moved = await chat("I moved to Porto.");
    expect(moved.outcomes.map((o) => [o.content, o.status, o.superseded_ids])).toEqual([
      ["Caroline: I moved to Porto.", "superseded", [lived.outcomes[0].id]],
    ]);
    const listed = (await callTool(client, "list_memories", {})).structuredContent as {
      memories: { content: string }[];
    };
    expect(listed.memories.map((m) => m.content).sort()).toEqual([
      "Caroline: I moved to Porto.",
      "Caroline: I teach yoga on weekends.",
    ]);
  });
});
