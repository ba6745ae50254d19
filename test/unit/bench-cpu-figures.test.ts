/**
 * `npm run bench:cpu`'s arithmetic: the isolate's CPU from a V8 profile (scripts/lib/cpu-profile.ts)
 * when busy samples straddle waits, and a shard-move step's CPU per row (scripts/lib/bench-cpu-move.ts).
 */
import { describe, expect, it } from "vitest";
import { moveRowCost } from "../../scripts/lib/bench-cpu-move";
import { type CpuProfile, profileCpu } from "../../scripts/lib/cpu-profile";

/** A profile of samples, each `[busy, µs since the previous sample]`. */
function profile(samples: [boolean, number][]): CpuProfile {
  return {
    nodes: [
      { id: 1, callFrame: { functionName: "(idle)", url: "" } },
      { id: 2, callFrame: { functionName: "rowHash", url: "index.js" } },
    ],
    startTime: 0,
    endTime: samples.reduce((t, [, d]) => t + d, 0),
    samples: samples.map(([busy]) => (busy ? 2 : 1)),
    timeDeltas: samples.map(([, d]) => d),
  };
}

describe("isolate CPU from a profile", () => {
  it("counts busy samples at the period of back-to-back ones", () => {
    const cpu = profileCpu(profile(Array.from({ length: 100 }, () => [true, 600] as [boolean, number])), 500);
    expect(cpu.periodUs).toBe(600);
    expect(cpu.busyMs).toBeCloseTo(60);
  });

  it("does not take a pair that straddles a wait for the period", () => {
    // A step that waits on D1: 15 busy samples, most pairs spanning a wait of 10 ms.
    const sparse: [boolean, number][] = [];
    for (let i = 0; i < 15; i++) sparse.push([true, i % 5 === 0 ? 600 : 10_000]);
    const cpu = profileCpu(profile(sparse), 500);
    expect(cpu.periodUs).toBe(600);
    expect(cpu.busyMs).toBeCloseTo(9);
    // With no back-to-back pair at all, the interval asked.
    expect(
      profileCpu(
        profile([
          [true, 9_000],
          [false, 9_000],
          [true, 9_000],
        ]),
        500,
      ).periodUs,
    ).toBe(500);
  });
});

describe("a shard-move step's CPU per row", () => {
  it("puts the CPU above a step that carries nothing down to the rows each step read", () => {
    const cost = moveRowCost(
      [
        { cpuMs: 30, copied: 1_000, verified: 0 },
        { cpuMs: 20, copied: 0, verified: 1_000 },
        { cpuMs: 25, copied: 500, verified: 500 },
        { cpuMs: 10, copied: 0, verified: 0 },
      ],
      10,
    );
    expect(cost.copy).toBeCloseTo(20);
    expect(cost.verify).toBeCloseTo(10);
    expect(cost.all).toBeCloseTo(15);
    expect(cost.maxRows).toBe(1_000);
    expect(Number.isNaN(moveRowCost([{ cpuMs: 10, copied: 0, verified: 0 }], 10).all)).toBe(true);
  });
});
