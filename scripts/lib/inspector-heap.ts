/**
 * @module scripts/lib/inspector-heap
 * The Worker's own JavaScript heap and CPU, read over the DevTools protocol wrangler dev serves on its
 * --inspector-port (ws://127.0.0.1:<port>/ws is the Worker's isolate, which also runs its Durable
 * Objects). workerd's resident memory also holds the local D1 simulator, the dev proxy and allocator
 * slack; the heap is what the Worker's code itself holds, which is what a production isolate's 128 MB
 * limit counts. Likewise workerd's process CPU includes the local D1's SQLite (D1's own servers,
 * deployed); V8's CPU profile of the isolate (`Profiler.start`/`stop`) holds only what runs on the
 * Worker's isolate: its JavaScript, the runtime's native calls it makes, and its garbage collection
 * (read by cpu-profile.ts).
 */
import type { CpuProfile } from "./cpu-profile.ts";

export interface HeapUsage {
  usedBytes: number;
  totalBytes: number;
}

export interface WorkerInspector {
  /**
   * Heap in use now, garbage not yet collected included. (workerd answers neither
   * HeapProfiler.collectGarbage nor takeHeapSnapshot through wrangler's proxy, so no forced GC: a
   * heap that keeps what it streamed climbs towards the export's size; one that does not, stays low.)
   */
  heap(): Promise<HeapUsage>;
  /** Starts V8's sampling CPU profiler on the isolate, one sample every `intervalUs` µs. */
  startProfile(intervalUs: number): Promise<void>;
  /** Stops the profiler and returns the profile (DevTools' Profiler.Profile). */
  stopProfile(): Promise<CpuProfile>;
  close(): void;
}

export async function connectInspector(port: number, timeoutMs = 10_000): Promise<WorkerInspector> {
  // wrangler's inspector proxy wants a local Origin (undici's WebSocket takes headers as an extension).
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { origin: "http://localhost" } });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`inspector on port ${port} did not answer`)), timeoutMs);
    ws.addEventListener("open", () => {
      clearTimeout(timer);
      resolve();
    });
    ws.addEventListener("error", () => {
      clearTimeout(timer);
      reject(new Error(`cannot connect to the inspector on port ${port}`));
    });
  });
  let next = 1;
  const waiting = new Map<number, (result: Record<string, unknown>) => void>();
  ws.addEventListener("message", (event) => {
    const msg = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result ?? {});
    if (msg.id !== undefined) waiting.delete(msg.id);
  });
  const send = (method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => reject(new Error(`inspector: ${method} timed out`)), timeoutMs);
      waiting.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    heap: async () => {
      const r = await send("Runtime.getHeapUsage");
      return { usedBytes: Number(r.usedSize), totalBytes: Number(r.totalSize) };
    },
    startProfile: async (intervalUs) => {
      await send("Profiler.enable");
      await send("Profiler.setSamplingInterval", { interval: intervalUs });
      await send("Profiler.start");
    },
    stopProfile: async () => (await send("Profiler.stop")).profile as CpuProfile,
    close: () => ws.close(),
  };
}
