import { describe, expect, it } from "vitest";
import {
  costModel,
  DEFAULT_USAGE,
  neuronsPerMTokens,
  PER_OPERATION,
  type PerOperation,
  recallRowsRead,
  type Usage,
  vectorizeQueriedDimensions,
  vectorizeStoredDimensions,
} from "../../scripts/lib/cost-model";

/** Round figures so every expected value below is computed by hand. */
const PER: PerOperation = {
  ...PER_OPERATION,
  recallRowsRead: {
    points: [
      [1_000, 100],
      [10_000, 500],
      [100_000, 900],
    ],
    source: "test",
  },
  saveRowsRead: { value: 200, source: "test" },
  saveRowsWritten: { value: 20, source: "test" },
  saveCpuMs: { value: 10, source: "test" },
  recallCpuMs: { value: 5, source: "test" },
  saveDoMs: { value: 20, source: "test" },
  recallDoMs: { value: 10, source: "test" },
  recallDoSqlRowsRead: { value: 2, source: "test" },
  recallDoSqlRowsWritten: { value: 2, source: "test" },
  saveDoSqlRowsWrittenLocal: { value: 3, source: "test" },
  saveDoSqlRowsWrittenVectorize: { value: 0, source: "test" },
  usageRowsWrittenPerCall: { value: 1, source: "test" },
  objectStartsPerMonth: { value: 100, source: "test" },
  objectStartKeyReads: { value: 3, source: "test" },
  localVectorBytes: { value: 1_000, source: "test" },
  emptyObjectBytes: { value: 10_000, source: "test" },
};

const usage = (over: Partial<Usage>): Usage => ({ ...DEFAULT_USAGE, ...over });
const line = (r: ReturnType<typeof costModel>, resource: string) => {
  const l = r.lines.find((x) => x.resource === resource);
  if (!l) throw new Error(`no line ${resource}`);
  return l;
};

describe("Vectorize's formulas", () => {
  it("queried dimensions = (queries + stored vectors) × dimensions, as the pricing page's example", () => {
    // 10,000 vectors of 384 dimensions queried 100 times: (10000 + 100) × 384 = 3,878,400.
    expect(vectorizeQueriedDimensions(100, 10_000, 384)).toBe(3_878_400);
  });
  it("stored dimensions = vectors × dimensions", () => {
    expect(vectorizeStoredDimensions(1_000, 1_536)).toBe(1_536_000);
  });
  it("one user of 11k memories at 1,024 dimensions is past Paid's 10M stored dimensions", () => {
    const r = costModel(usage({ memories: 11_000 }), PER);
    const stored = line(r, "Vectorize stored dimensions");
    expect(stored.total).toBe(11_264_000);
    // (11,264,000 − 10,000,000) × $0.05 / 100M = $0.000632
    expect(stored.cost).toBeCloseTo(0.000632, 9);
    const queried = line(r, "Vectorize queried dimensions");
    // 1,000 saves + 10,000 recalls query once each, plus the 11,000 stored vectors: 22,000 × 1,024.
    expect(queried.total).toBe(22_528_000);
    expect(queried.cost).toBe(0);
  });
  it("at 100k memories the queried dimensions cost $1.14 a further user, $0.64 beyond the first user's allowance", () => {
    const r = costModel(usage({ memories: 100_000 }), PER);
    const queried = line(r, "Vectorize queried dimensions");
    expect(queried.total).toBe(113_664_000); // (11,000 + 100,000) × 1,024
    expect(queried.perFurtherUser).toBeCloseTo(1.13664, 9);
    expect(queried.cost).toBeCloseTo(0.63664, 9); // (113,664,000 − 50M) × $0.01 / M
  });
  it("a local index bills no Vectorize line", () => {
    const r = costModel(usage({ vectorIndex: "local" }), PER);
    expect(r.lines.some((l) => l.resource.startsWith("Vectorize"))).toBe(false);
  });
});

describe("D1 rows per recall", () => {
  it("takes the measured points, log-linear between them, flat outside", () => {
    expect(recallRowsRead(1_000, PER)).toBe(100);
    expect(recallRowsRead(500, PER)).toBe(100);
    expect(recallRowsRead(10_000, PER)).toBe(500);
    expect(recallRowsRead(Math.sqrt(1e4 * 1e5), PER)).toBeCloseTo(700, 9);
    expect(recallRowsRead(1_000_000, PER)).toBe(900);
  });
  it("bills rows read and written beyond Paid's allowance", () => {
    const r = costModel(usage({ memories: 10_000, users: 10_000 }), PER);
    const read = line(r, "D1 rows read");
    // per user 10,000 × 500 + 1,000 × 200 = 5.2M; 10,000 users 52B; beyond 25B: 27B × $0.001 / M = $27.
    expect(read.perUser).toBe(5_200_000);
    expect(read.cost).toBeCloseTo(27, 6);
    const written = line(r, "D1 rows written");
    // 1,000 × 20 = 20,000 per user, 200M in all; beyond 50M: 150M × $1 / M = $150.
    expect(written.cost).toBeCloseTo(150, 6);
  });
});

describe("Workers, Durable Objects and KV", () => {
  it("counts the Cron once for the account and every tool call as a request", () => {
    const r = costModel(usage({ users: 1_000, memories: 1_000 }), PER);
    const req = line(r, "Workers requests");
    expect(req.total).toBe(11_002_880);
    expect(req.cost).toBeCloseTo(((11_002_880 - 10_000_000) / 1e6) * 0.3, 9);
    const cpu = line(r, "Workers CPU");
    expect(cpu.perUser).toBe(1_000 * 10 + 10_000 * 5);
    const dur = line(r, "Durable Object duration");
    // (1,000 × 20 ms + 10,000 × 10 ms) = 120 s × 0.128 GB = 15.36 GB-s per user
    expect(dur.perUser).toBeCloseTo(15.36, 9);
  });
  it("an API key reads no KV; OAuth reads the token on each request", () => {
    expect(costModel(usage({ auth: "key" }), PER).lines.some((l) => l.resource.startsWith("KV"))).toBe(false);
    expect(line(costModel(usage({ auth: "oauth" }), PER), "KV reads (OAuth)").perUser).toBe(11_000);
  });
});

describe("Workers AI", () => {
  it("turns a model's USD per million tokens into neurons at $0.011 per 1,000", () => {
    expect(neuronsPerMTokens(0.011)).toBeCloseTo(1_000, 9);
    const r = costModel(usage({}), PER);
    // (1,000 × 25 + 10,000 × 10) tokens of bge-m3 at $0.0118 / M
    expect(line(r, "Workers AI, bge-m3").perUser).toBeCloseTo((125_000 / 1e6) * (0.0118 / 0.000011), 6);
  });
  it("bills every model's neurons against one shared allowance", () => {
    const r = costModel(usage({ users: 1_000 }), PER);
    const ai = r.lines.filter((l) => l.price === "neurons");
    const all = ai.reduce((s, l) => s + l.total, 0);
    const billed = ai.reduce((s, l) => s + l.cost, 0);
    expect(billed).toBeCloseTo(((all - 300_000) * 0.011) / 1000, 6);
  });
});

describe("first user, further users, the subscription", () => {
  it("one light user costs the subscription only", () => {
    const r = costModel(usage({ memories: 1_000 }), PER);
    expect(r.firstUser).toBe(5);
    expect(r.total).toBe(5);
  });
  it("each further user adds every line's per-user use at its price", () => {
    const r = costModel(usage({ memories: 100_000 }), PER);
    const sum = r.lines.reduce((s, l) => s + l.perFurtherUser, 0);
    expect(r.perFurtherUser).toBeCloseTo(sum, 12);
    expect(r.perFurtherUser).toBeGreaterThan(1.13664);
  });
});

describe("Workers Free", () => {
  it("5,000 memories at 1,024 dimensions pass Vectorize's 5M stored dimensions; 4,800 fit", () => {
    const over = costModel(usage({ plan: "free", memories: 5_000 }), PER);
    expect(over.overFree.map((o) => o.resource)).toContain("Vectorize stored dimensions");
    const fits = costModel(usage({ plan: "free", memories: 4_800 }), PER);
    expect(fits.overFree.map((o) => o.resource)).not.toContain("Vectorize stored dimensions");
  });
  it("KV's 1,000 writes a day carry 20 OAuth users refreshing all month, not 21", () => {
    // 720 refreshes × 2 writes = 1,440 a month = 48 a day per user.
    const free = (users: number) =>
      costModel(usage({ plan: "free", users, memories: 1_000, vectorIndex: "local" }), PER).overFree.map(
        (o) => o.resource,
      );
    expect(free(20)).not.toContain("KV writes (OAuth)");
    expect(free(21)).toContain("KV writes (OAuth)");
  });
  it("reports the most users the tightest limit allows", () => {
    const r = costModel(
      usage({
        plan: "free",
        memories: 1_000,
        vectorIndex: "local",
        auth: "key",
        reranker: false,
        workersAiEmbeddings: false,
      }),
      PER,
    );
    // The object's rows written per user a day bind first: (10,000 × 2 + 1,000 × 3 + 11,000 × 1) / 30 =
    // 1,133.3 → 100,000 / 1,133.3 = 88 users (D1 rows read alone: (10,000 × 100 + 1,000 × 200) / 30 = 40,000 → 125).
    expect(r.freeUsersFit).toBe(88);
  });
});

describe("the Durable Object's own storage", () => {
  it("bills rows and stored data; the in-object index adds its vectors", () => {
    const paid = costModel(usage({ memories: 1_000 }), PER);
    // recalls 10,000 × 2 + 100 starts × 3 keys = 20,300; written 10,000 × 2 + 1,000 × 0 + 11,000 × 1 = 31,000.
    expect(line(paid, "Durable Object rows read").perUser).toBe(20_300);
    expect(line(paid, "Durable Object rows written").perUser).toBe(31_000);
    expect(line(paid, "Durable Object stored data").perUser).toBeCloseTo(10_000 / 1e9, 12);
    const local = costModel(usage({ memories: 1_000, vectorIndex: "local" }), PER);
    // Each start reads every stored vector: 20,000 + 100 × (3 + 1,000) = 120,300; a save writes 3 more rows.
    expect(line(local, "Durable Object rows read").perUser).toBe(120_300);
    expect(line(local, "Durable Object rows written").perUser).toBe(34_000);
    expect(line(local, "Durable Object stored data").perUser).toBeCloseTo((10_000 + 1_000 * 1_000) / 1e9, 12);
  });

  it("bills rows written beyond Paid's 50M at $1 a million", () => {
    // 2,000 users × 31,000 rows = 62M: 12M beyond, $12.
    const r = costModel(usage({ memories: 1_000, users: 2_000 }), PER);
    expect(line(r, "Durable Object rows written").cost).toBeCloseTo(12, 6);
  });
});

describe("bad input", () => {
  it("names the field and the rule", () => {
    expect(() => costModel(usage({ memories: -1 }), PER)).toThrow("memories must be a whole number of at least 0");
    expect(() => costModel(usage({ users: 0 }), PER)).toThrow("users must be at least 1");
    expect(() => costModel(usage({ saves: 1.5 }), PER)).toThrow("saves must be a whole number");
  });
});
