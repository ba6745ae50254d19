/**
 * The memory router's per-conversation state in the user's Durable Object SQLite
 * (storage/do-conversations.ts): it survives a fresh store over the same object (an eviction),
 * conversations idle past the window are forgotten on the next write, the written one never; and
 * the domain over it (memory/conversation/) never injects a memory twice and never saves a user
 * message twice, with the real D1 and the rules pipeline.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { recallInConversation } from "../../src/memory/conversation/conversation-recall";
import { saveConversationTurns } from "../../src/memory/conversation/conversation-save";
import { ownerAddress } from "../../src/memory/owner-address";
import { DoConversations } from "../../src/storage/object/do-conversations";
import { LocalVectorIndex } from "../../src/storage/vectors/local-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { MemoryConversations, testService } from "../helpers/test-service";

const state = (turns: number, lastAt: number) => ({ turns, injected: ["m1"], saved: ["d1"], lastAt });

describe("DoConversations", () => {
  it("keeps a conversation across stores of one object and forgets idle ones on the next write", async () => {
    const address = ownerAddress({ accountId: "default", namespace: "user", userId: uniqueUser("conv") });
    await runInDurableObject(env.USER_MEMORY.get(env.USER_MEMORY.idFromName(address)), async (_i, s) => {
      const first = new DoConversations(s.storage.sql);
      first.put("old", state(1, 1_000), 0);
      first.put("kept", state(2, 5_000), 0);
      const again = new DoConversations(s.storage.sql);
      expect(again.get("old")).toEqual(state(1, 1_000));
      again.put("new", state(1, 9_000), 2_000);
      expect(again.get("old")).toBeUndefined();
      expect(again.get("kept")).toEqual(state(2, 5_000));
      again.put("kept", state(3, 9_500), 9_999);
      expect(again.get("kept")).toEqual(state(3, 9_500));
      expect(again.get("new")).toBeUndefined();
    });
  });
});

describe("recall and saving per conversation", () => {
  it("injects a memory once per conversation, saves each user message once, and never the same twice", async () => {
    const owner = { accountId: "default", namespace: "user", userId: uniqueUser("conv"), actor: "key:test" };
    const address = ownerAddress(owner);
    await runInDurableObject(env.USER_MEMORY.get(env.USER_MEMORY.idFromName(address)), async (_i, s) => {
      const conversations = new MemoryConversations();
      const svc = testService({ index: new LocalVectorIndex(s.storage.sql, 384), conversations });
      const saved = await saveConversationTurns(svc, owner, {
        conversation: "c1",
        userMessages: ["I moved to Hangzhou last month for a new job.", "I also adopted a cat named Mochi."],
        source: "router:c1",
      });
      expect(saved.saved).toBe(2);
      const resent = await saveConversationTurns(svc, owner, {
        conversation: "c1",
        userMessages: ["I moved to Hangzhou last month for a new job.", "I also adopted a cat named Mochi."],
        source: "router:c1",
      });
      expect(resent).toEqual({ saved: 0, result: null });

      const ask = (conversation: string) =>
        recallInConversation(svc, owner, { query: "Where did I move last month?", conversation, budgetTokens: 300 });
      const first = await ask("c2");
      expect(first.first).toBe(true);
      expect(first.memories.map((m) => m.content)).toContain("I moved to Hangzhou last month for a new job.");
      const second = await ask("c2");
      expect(second.first).toBe(false);
      expect(second.memories).toEqual([]);
      expect((await ask("c3")).memories.map((m) => m.content)).toContain(
        "I moved to Hangzhou last month for a new job.",
      );
      expect(conversations.get("c2")?.turns).toBe(2);
    });
  });
});
