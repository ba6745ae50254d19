/**
 * The hostile-upstream suite inside workerd, with the real user Durable Object and D1: the
 * OpenAI-compatible embedder and Llm point at a hostile upstream (test/helpers/hostile-upstream.ts,
 * served in-process as the providers' fetch) that answers non-finite, wrong-size and huge vectors, a
 * 400 MB body, a body or headers that never finish, injection and secrets in every model answer, and
 * a redirect to another origin. Whatever it answers: every save lands, every recall answers with
 * finite scores (0 recall failures), no model text is stored or shown unscreened, nothing reaches
 * the other origin, and a huge body is never read whole (the bytes pulled stay near the cap).
 * Deadlines: a tool call's model calls end by its deadline (providers/gate/call-deadline.ts), a
 * 4-fact summarize_conversation on a silent upstream finishes within it (+2 s) and says which facts
 * it saved, and a save queued behind it too; the circuit breaker stops calling a failing upstream.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Llm } from "../../src/memory/ports";
import type { MemoryDeps } from "../../src/memory/service-deps";
import type { Scope } from "../../src/memory/types";
import { deadlineLeftMs, TOOL_CALL_DEADLINE_MS, withCallDeadline } from "../../src/providers/gate/call-deadline";
import { OpenAiCompatibleEmbedder } from "../../src/providers/openai-compatible/openai-compatible-embedder";
import { UPSTREAM_MAX_BYTES } from "../../src/providers/openai-compatible/openai-compatible-http";
import { OpenAiCompatibleLlm } from "../../src/providers/openai-compatible/openai-compatible-llm";
import { RulesLlm } from "../../src/providers/rules-llm";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";
import {
  AWS_KEY,
  HOSTILE_MODES,
  HOSTILE_TEXT,
  type HostileMode,
  type HostileRecord,
  hostileFetch,
  newRecord,
  UNSCREENED,
} from "../helpers/hostile-upstream";
import { insertMemories, ok, overrideDeps, ownerOf, stubOf } from "../helpers/lifecycle";
import { recordingLogger, testService } from "../helpers/test-service";

const BASE = "http://upstream.test/v1";
/** Short provider timeouts, so the slow modes cost a second, not the production 10-20 s. */
const TIMEOUT_MS = 800;

function hostileProviders(deps: MemoryDeps, state: { mode: HostileMode }, record: HostileRecord, timeoutMs?: number) {
  const endpoint = { baseUrl: BASE, fetcher: hostileFetch(state, deps.embedder.dimensions, record, BASE) };
  return {
    embedder: new OpenAiCompatibleEmbedder(endpoint, deps.embedder.model, deps.embedder.dimensions, timeoutMs),
    llm: new OpenAiCompatibleLlm(endpoint, "hostile-llm", new RulesLlm(), deps.log, timeoutMs),
  };
}

/** A fresh owner of the real Durable Object whose embedder and Llm are the hostile upstream. */
async function hostileOwner(mode: HostileMode) {
  const owner = ownerOf(uniqueUser(`hostile-${mode}`));
  const state = { mode: "ok" as HostileMode };
  const record = newRecord();
  await insertMemories(owner, [
    { content: "Has a season ticket for the opera" },
    { content: "Walks to work along the canal" },
    { content: "Collects enamel pins from museums" },
  ]);
  await overrideDeps(owner, (deps) => hostileProviders(deps, state, record, TIMEOUT_MS));
  state.mode = mode;
  return { owner, record };
}

/** Every stored field a model's text could reach, per row, for the owner. */
async function storedTexts(owner: Scope): Promise<{ status: string; text: string }[]> {
  const rows = await env.DB.prepare(
    "SELECT status, content, summary, tags, source FROM memories WHERE account_id = ? AND user_id = ?",
  )
    .bind(owner.accountId, owner.userId)
    .all<Record<string, string | null>>();
  const events = await env.DB.prepare("SELECT after FROM memory_events WHERE account_id = ? AND user_id = ?")
    .bind(owner.accountId, owner.userId)
    .all<{ after: string | null }>();
  return [
    ...rows.results.map((r) => ({
      status: String(r.status),
      text: [r.content, r.summary, r.tags, r.source].join(" "),
    })),
    ...events.results.map((e) => ({ status: JSON.parse(e.after ?? "{}").status ?? "event", text: e.after ?? "" })),
  ];
}

const LONG_NOTE = `My garden plan for the spring: ${"tomatoes, basil, courgettes and a row of sunflowers along the fence; ".repeat(9)}`;

describe("a hostile upstream: every answer screened and bounded", () => {
  it.each(HOSTILE_MODES)(
    "%s: saves land, recall answers with finite scores, no unscreened model text",
    async (mode) => {
      const { owner, record } = await hostileOwner(mode);
      const stub = stubOf(owner);
      const saved = await ok(stub.save(owner, { content: "I keep bees on the roof of my flat in Porto" }));
      expect(["created", "superseded"]).toContain(saved.status);
      const long = await ok(stub.save(owner, { content: LONG_NOTE }));
      expect(long.status).toBe("created");
      const told = await ok(
        stub.summarize(owner, {
          transcript: "user: I moved my beehives to the allotment by the river.\nassistant: Noted.",
        }),
      );
      // 0 recall failures: every recall answers, every score is a finite number.
      for (const query of ["bees Porto", "garden sunflowers", "beehives allotment river"]) {
        const r = await ok(stub.recall(owner, { query, limit: 10 }));
        for (const hit of r.results) expect(Number.isFinite(hit.score)).toBe(true);
        expect(r.results.length).toBeGreaterThan(0);
      }
      const found = await ok(stub.recall(owner, { query: "bees on the roof in Porto", limit: 10 }));
      expect(found.results.map((x) => x.memory.id)).toContain(saved.id);

      // 0 unscreened model texts: no secret anywhere stored, no injection in anything searchable.
      for (const row of await storedTexts(owner)) {
        expect(row.text).not.toContain(AWS_KEY);
        expect(row.text).not.toMatch(/hunter2/);
        if (row.status === "active") for (const marker of UNSCREENED) expect(row.text).not.toMatch(marker);
      }
      const answers = JSON.stringify([saved, long, told]);
      expect(answers).not.toContain(AWS_KEY);
      expect(answers).not.toMatch(/hunter2/);
      for (const r of [saved, long]) if (r.reason) expect(r.reason).not.toMatch(UNSCREENED[0]);
      for (const o of told.outcomes) {
        for (const marker of UNSCREENED) expect(o.content).not.toMatch(marker);
        if (o.status === "quarantined") expect(o.content).toBe("");
      }
      if (mode === "injection") expect(told.outcomes.map((o) => o.status)).toContain("quarantined");
      const shown = JSON.stringify(found.results.map((x) => [x.memory.content, x.memory.summary]));
      for (const marker of UNSCREENED) expect(shown).not.toMatch(marker);

      // Nothing re-sent to another origin; a huge body read no further than the cap.
      expect(record.crossOriginRequests).toBe(0);
      expect(record.maxBodyPulled).toBeLessThanOrEqual(UPSTREAM_MAX_BYTES + 2 * 65_536);
      if (mode === "huge-body") expect(record.cancelled).toBeGreaterThan(0);
    },
  );

  it("a summary that carries an instruction and an AWS key is never stored or shown as the title", async () => {
    const { owner } = await hostileOwner("injection");
    const stub = stubOf(owner);
    const r = await ok(stub.save(owner, { content: LONG_NOTE }));
    expect(r.memory?.summary ?? null).toBeNull();
    const fetched = await ok(stub.get(owner, r.id!));
    expect(JSON.stringify(fetched)).not.toMatch(UNSCREENED[0]);
    expect(JSON.stringify(fetched)).not.toContain(AWS_KEY);
  });

  it("a conflict decision's free-text reason comes back as a code", async () => {
    const owner = ownerOf(uniqueUser("hostile-reason"));
    const state = { mode: "ok" as HostileMode };
    const record = newRecord();
    await overrideDeps(owner, (deps) => hostileProviders(deps, state, record, TIMEOUT_MS));
    const stub = stubOf(owner);
    await ok(stub.save(owner, { content: "I live in Shanghai" }));
    state.mode = "injection";
    const r = await ok(stub.save(owner, { content: "I live in Hangzhou now" }));
    expect(r.reason ?? "").not.toMatch(UNSCREENED[0]);
    if (r.reason) expect(r.reason).toMatch(/^(?:llm|rules): /);
  });

  it("whatever Llm decides a conflict, its free-text reason never reaches the answer or the history", async () => {
    const rules = new RulesLlm();
    const wordy: Llm = {
      kind: "workers-ai",
      summarize: (c, n) => rules.summarize(c, n),
      extractFacts: (m) => rules.extractFacts(m),
      decideConflict: async (content, candidates) => ({
        ...(await rules.decideConflict(content, candidates)),
        supersedes: candidates.length > 0 ? [1] : [],
        reason: HOSTILE_TEXT,
      }),
    };
    const svc = testService({
      index: new VectorizeVectorIndex(new FakeVectorize() as unknown as VectorizeIndex),
      llm: wordy,
    });
    const owner: Scope = { accountId: "default", namespace: "user", userId: uniqueUser("reason"), actor: "test" };
    await svc.save(owner, { content: "I live in Shanghai" });
    const r = await svc.save(owner, { content: "I live in Hangzhou now" });
    expect(r.status).toBe("superseded");
    expect(r.reason).toBe("llm: supersedes #1");
    for (const row of await storedTexts(owner)) expect(row.text).not.toMatch(UNSCREENED[0]);
  });

  it("every call into the user's object runs under the tool-call deadline", async () => {
    const owner = ownerOf(uniqueUser("hostile-deadline"));
    const seen: number[] = [];
    await overrideDeps(owner, (deps) => ({
      embedder: {
        model: deps.embedder.model,
        dimensions: deps.embedder.dimensions,
        embed: (texts) => {
          seen.push(deadlineLeftMs());
          return deps.embedder.embed(texts);
        },
      },
    }));
    await ok(stubOf(owner).save(owner, { content: "I swim in the lake every Sunday" }));
    expect(seen.length).toBeGreaterThan(0);
    for (const left of seen) expect(left).toBeLessThanOrEqual(TOOL_CALL_DEADLINE_MS);
    for (const left of seen) expect(left).toBeGreaterThan(0);
  });
});

describe("deadlines and the circuit breaker", () => {
  /** The service over a silent upstream with the production timeouts (10 s embedding, 20 s chat). */
  function silentService(mode: HostileMode = "slow-headers") {
    const state = { mode };
    const record = newRecord();
    const log = recordingLogger();
    const base = testService({
      index: new VectorizeVectorIndex(new FakeVectorize() as unknown as VectorizeIndex),
      log,
    });
    const svc = base.withDeps({ ...base.deps, ...hostileProviders(base.deps, state, record) });
    return { svc, record };
  }
  const scope: Scope = { accountId: "default", namespace: "user", userId: "", actor: "test" };
  const DEADLINE_MS = 1_500;
  const GRACE_MS = 2_000;

  it.each(["slow-headers", "slow-body"] as const)(
    "%s: a 4-fact summarize_conversation ends within its deadline and says which facts it saved; a save queued behind it too",
    async (mode) => {
      const { svc, record } = silentService(mode);
      const owner = { ...scope, userId: uniqueUser(`deadline-${mode}`) };
      const transcript = [
        "user: I drink oolong tea every morning.",
        "user: My sister Ana lives in Lisbon.",
        "user: I am allergic to peanuts.",
        "user: I started learning the cello in March.",
      ].join("\n");
      const started = Date.now();
      const summarizing = withCallDeadline(DEADLINE_MS, () => svc.summarize(owner, { transcript }));
      const saving = withCallDeadline(DEADLINE_MS, () => svc.save(owner, { content: "I cycle to work on Fridays" }));
      const told = await summarizing;
      const summarizeMs = Date.now() - started;
      const saved = await saving;
      const saveMs = Date.now() - started;
      expect(summarizeMs).toBeLessThan(DEADLINE_MS + GRACE_MS);
      expect(saveMs).toBeLessThan(DEADLINE_MS + GRACE_MS);
      // The rules extract in the model's place; every fact they found is saved and listed.
      expect(told.outcomes.length).toBeGreaterThanOrEqual(3);
      expect(told.outcomes).toHaveLength(told.extracted);
      for (const o of told.outcomes) {
        expect(o.status).toBe("created");
        expect(o.id).not.toBeNull();
        expect(o.indexedLater).toBe(true);
      }
      expect(saved.status).toBe("created");
      // The breaker: after two failed calls the upstream is not called again for this adapter.
      expect(record.requests).toBeLessThanOrEqual(4);
    },
  );

  it("the breaker skips a failing embedder, then lets one call through after its cool-down", async () => {
    const { svc, record } = silentService("non-finite");
    const owner = { ...scope, userId: uniqueUser("breaker") };
    for (let i = 0; i < 5; i++) await svc.save(owner, { content: `I planted tree number ${i} in the orchard` });
    // Two embedding answers refused (non-finite), then skipped; chat answers are fine meanwhile.
    expect(record.requests).toBeLessThan(5 + 5);
    const r = await svc.recall(owner, { query: "orchard tree" }, 10);
    expect(r.lexicalOnly).toBe(true);
    for (const hit of r.results) expect(Number.isFinite(hit.score)).toBe(true);
  });
});
