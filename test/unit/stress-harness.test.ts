/** The reliability run's pure parts (scripts/lib/stress-*): determinism and the invariant checks. */
import { describe, expect, it } from "vitest";
import { fuzzCases } from "../../scripts/lib/stress-fuzz-plan";
import { hasStackTrace, Ledger, WireChecks } from "../../scripts/lib/stress-invariants";
import { nextOp, type OpContext } from "../../scripts/lib/stress-ops";
import { planOwners } from "../../scripts/lib/stress-owners";
import { Rng } from "../../scripts/lib/stress-prng";
import { invariants, type StressFigures } from "../../scripts/lib/stress-report";

function ops(seed: number, n: number) {
  const plan = planOwners(4, new Rng(seed));
  const rng = new Rng(seed + 1);
  const ctx = (seq: number): OpContext => ({
    device: plan.devices[seq % plan.devices.length],
    client: "c1",
    seq,
    liveIds: () => ["01A", "01B"],
    deletedIds: () => ["01C"],
  });
  return Array.from({ length: n }, (_, i) => nextOp(rng, ctx(i)));
}

describe("the reliability run's generators", () => {
  it("draw the same operations and fuzz cases from the same seed, different ones from another", () => {
    expect(ops(7, 200)).toEqual(ops(7, 200));
    expect(ops(7, 200)).not.toEqual(ops(8, 200));
    expect(fuzzCases(new Rng(3), 300)).toEqual(fuzzCases(new Rng(3), 300));
    expect(fuzzCases(new Rng(3), 300)).not.toEqual(fuzzCases(new Rng(4), 300));
  });

  it("put the acting owner's marker, and no other, in every text an operation saves", () => {
    const plan = planOwners(4, new Rng(11));
    const markers = new Set(plan.owners.map((o) => o.marker));
    expect(markers.size).toBe(plan.owners.length);
    for (const op of ops(11, 500)) {
      const text = JSON.stringify(op.kind === "import" ? op.lines : op.kind === "save" ? op.args : {});
      const shown = [...text.matchAll(/zq[a-z0-9]{10}/g)].map((m) => m[0]);
      for (const m of shown) expect(m).toBe(op.owner.marker);
    }
  });

  it("plan owners whose account:user strings collide, and app end users that collide with a person", () => {
    const ids = planOwners(3, new Rng(1)).owners.map((o) => o.id);
    expect(ids).toEqual(
      expect.arrayContaining(["user:acme/x:y", "user:acme:x/y", "app:stress/bot-a/u2", "user:stress/u2"]),
    );
    expect(ids).toEqual(expect.arrayContaining(["app:stress/bot-a/e1", "app:stress/bot-b/e1"]));
  });

  it("cover every route and at least one malformed request of every family", () => {
    const cases = fuzzCases(new Rng(5), 3000);
    expect(new Set(cases.map((c) => c.route))).toEqual(new Set(["mcp", "sse", "import", "oauth"]));
    const kinds = cases.map((c) => c.kind).join(" ");
    for (const family of [
      "junk-json",
      "deep-json-body",
      "bad-id",
      "bad-cursor",
      "redos-oversize",
      "oversize-body",
      "one-bad-line",
      "auth-none",
      "token-bad-grant",
      "lone-surrogate",
    ])
      expect(kinds).toContain(family);
  });
});

describe("the reliability run's invariant checks", () => {
  const plan = planOwners(2, new Rng(9));
  const [a, b] = plan.owners;

  it("catch a planted cross-owner leak and ignore the owner's own marker", () => {
    const wire = new WireChecks(plan.owners);
    expect(wire.scanMarkers("recall", [a.id], `{"content":"${a.marker} my own note"}`)).toBe(0);
    expect(wire.scanMarkers("recall", [a.id], `{"content":"${b.marker} someone else's note"}`)).toBe(1);
    expect(wire.leaks).toEqual([{ where: "recall", viewer: a.id, shown: b.id }]);
  });

  it("catch 5xx answers and stack traces, not ordinary errors", () => {
    const wire = new WireChecks(plan.owners);
    wire.scanWire("POST /mcp", 400, '{"error":"invalid_input","message":"content: must not be empty"}');
    wire.scanWire("POST /mcp", 500, '{"error":"internal","message":"Internal error"}');
    wire.scanWire("POST /sse", 200, "Error: boom\n    at handler (file:///app/src/mcp/x.ts:12:3)");
    expect(wire.serverErrors).toHaveLength(1);
    expect(wire.stackTraces).toHaveLength(1);
    expect(hasStackTrace("at Object.fetch (index.js:10:5)")).toBe(true);
    expect(hasStackTrace("see /src/memory/limits.ts")).toBe(true);
    expect(hasStackTrace("I stay at home at 5 pm")).toBe(false);
  });

  it("catch a lost, a reverted and an undeleted acknowledged write; forgive what was never acknowledged", () => {
    const ledger = new Ledger();
    const w = { owner: a.id, forgetTag: null, by: "c1" };
    ledger.ackWrite({ ...w, id: "m1", outcome: "created", content: "one" });
    ledger.ackWrite({ ...w, id: "m2", outcome: "created", content: "two" });
    ledger.ackWrite({ ...w, id: "m3", outcome: "created", content: "three" });
    ledger.ackWrite({ ...w, id: "m4", outcome: "created", content: "four" });
    ledger.ackWrite({ ...w, id: null, outcome: "rejected", content: null });
    ledger.ackUpdate(a.id, "m2", "two, edited");
    ledger.ackDelete(a.id, "m3");
    ledger.unsure(a.id, "m4");
    const listed = [
      { id: "m2", content: "two", status: "active" },
      { id: "m3", content: "three", status: "active" },
      { id: "m4", content: "four?", status: "deleted" },
    ];
    expect(ledger.acknowledged).toBe(7);
    expect(ledger.verify(a.id, listed).map((l) => [l.id, l.problem])).toEqual([
      ["m1", "missing"],
      ["m2", "content differs from the acknowledged text"],
      ["m3", "status active, expected deleted"],
    ]);
    expect(ledger.verify(b.id, [])).toEqual([]);
  });

  it("fail the run on any broken invariant", () => {
    const clean = {
      crossOwnerLeaks: 0,
      lostWrites: 0,
      serverErrors: 0,
      stackTraces: 0,
      unanswered: 0,
      killsSurvived: 3,
      halfWritten: 0,
      vectorFault: { ok: true },
      embedderFault: { ok: true },
      hostileSlowestMs: 100,
      hostileErrors: 0,
      trustChecks: 13,
      trustFailures: 0,
      fuzzCases: 10_000,
      fuzzRefused: 10_000,
      storeUnchanged: true,
      memoryTextInLog: 0,
    } as StressFigures;
    expect(invariants(clean, 3, 10_000, 5_000).every((c) => c.ok)).toBe(true);
    const leaky = invariants({ ...clean, crossOwnerLeaks: 1 }, 3, 10_000, 5_000);
    expect(leaky.filter((c) => !c.ok).map((c) => c.name)).toEqual(["no cross-owner leak"]);
    const outage = invariants({ ...clean, embedderFault: { ok: false } } as StressFigures, 3, 10_000, 5_000);
    expect(outage.filter((c) => !c.ok).map((c) => c.name)).toEqual([
      "no write fails while the embedder fails; recall answers; every such memory indexed after",
    ]);
    const bypassed = invariants({ ...clean, trustFailures: 1 }, 3, 10_000, 5_000);
    expect(bypassed.filter((c) => !c.ok).map((c) => c.name)).toEqual([
      "quarantine holds against tools and imports; hostile categories and actors refused",
    ]);
  });
});
