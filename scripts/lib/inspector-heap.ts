/**
 * @module scripts/lib/inspector-heap
 * The Worker's own JavaScript heap, read over the DevTools protocol wrangler dev serves on its
 * --inspector-port (ws://127.0.0.1:<port>/ws is the Worker's isolate). workerd's resident memory
 * also holds the local D1 simulator, the dev proxy and allocator slack; the heap is what the
 * Worker's code itself holds, which is what a production isolate's 128 MB limit counts.
 */

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
  const send = (method: string): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => reject(new Error(`inspector: ${method} timed out`)), timeoutMs);
      waiting.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      ws.send(JSON.stringify({ id, method }));
    });
  return {
    heap: async () => {
      const r = await send("Runtime.getHeapUsage");
      return { usedBytes: Number(r.usedSize), totalBytes: Number(r.totalSize) };
    },
    close: () => ws.close(),
  };
}
