/**
 * @module scripts/lib/cpu-profile
 * What a V8 CPU profile of the Worker's isolate (taken by inspector-heap.ts) says the isolate spent:
 * busy samples times the sampler's period. Apart from the inspector's socket so a unit test can load it.
 */

/** DevTools' Profiler.Profile, the fields read here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** What a profile says the isolate did: the samples that landed in code, not idle, and the time they stand for. */
export interface ProfileCpu {
  /** Samples taken while the isolate ran (JS, the runtime's native code, GC): everything but "(idle)". */
  busySamples: number;
  /** Of those, garbage collection. */
  gcSamples: number;
  /** The time between two samples while the isolate runs (median over back-to-back busy samples less than two intervals apart), µs. */
  periodUs: number;
  /** busySamples × periodUs, in ms: the isolate's CPU over the profile. */
  busyMs: number;
  /** Of it, garbage collection, ms. */
  gcMs: number;
  /** The profile's span (wall time), in ms. */
  spanMs: number;
}

/**
 * CPU of the isolate over a profile. V8 samples only while the isolate is entered on its thread: while
 * it waits on I/O (or workerd runs another isolate, such as the local D1) no sample is taken, and the
 * next sample's time delta spans the gap. So the time a sample stands for is the period between
 * back-to-back busy samples (the sampler runs slower than asked: ~580–620 µs for 500 here), and the CPU is
 * busy samples × that period. Two busy samples in a row can still straddle a wait (the isolate left and
 * came back between them, with no idle sample taken): in a step that mostly waits on D1 such pairs are
 * most of them and their median was 2–17× the period (a shard-move step of deletes read as 126 ms for
 * 15 busy samples). So only pairs less than two intervals apart set the period; with none, the interval asked. Checked against workerd's process CPU on a CPU-bound request (a 5,000-line
 * import dry run): 646 ms of isolate CPU beside 780 ms of process CPU, the rest being workerd's own
 * request and body handling outside the isolate.
 */
export function profileCpu(profile: CpuProfile, intervalUs: number): ProfileCpu {
  const kind = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  const busyAt = profile.samples.map((id) => {
    const name = kind.get(id);
    return name !== "(idle)" && name !== "(root)";
  });
  const runs: number[] = [];
  let busy = 0;
  let gc = 0;
  profile.samples.forEach((id, i) => {
    if (!busyAt[i]) return;
    busy++;
    if (kind.get(id) === "(garbage collector)") gc++;
    if (i > 0 && busyAt[i - 1] && profile.timeDeltas[i] < 2 * intervalUs) runs.push(profile.timeDeltas[i]);
  });
  runs.sort((a, b) => a - b);
  const periodUs = runs.length > 0 ? runs[Math.floor(runs.length / 2)] : intervalUs;
  return {
    busySamples: busy,
    gcSamples: gc,
    periodUs,
    busyMs: (busy * periodUs) / 1000,
    gcMs: (gc * periodUs) / 1000,
    spanMs: (profile.endTime - profile.startTime) / 1000,
  };
}
