/**
 * `npm run bench:cpu`'s arithmetic: the isolate's CPU from a V8 profile (scripts/lib/cpu-profile.ts)
 * when busy samples straddle waits.
 */
import { describe, expect, it } from "vitest";
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
