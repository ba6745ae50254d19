/**
 * @module providers/gate/upstream-body
 * An upstream's answer read as a stream with a byte cap: chunks are counted as they arrive and the
 * stream is cancelled the moment the cap is passed (or a Content-Length above it is announced), so
 * a 400 MB answer costs at most the cap in memory, never the whole body (an isolate has 128 MB). The
 * caller's timeout covers the read too (it runs inside the same race), so a body that trickles is
 * cut at the deadline like a silent server.
 */

/** An answer larger than its cap: refused, the rest never read. */
export class UpstreamTooLargeError extends Error {
  constructor(readonly capBytes: number) {
    super(`the answer is larger than ${capBytes} bytes`);
    this.name = "UpstreamTooLargeError";
  }
}

/**
 * The body as UTF-8 text, at most `capBytes` bytes; throws UpstreamTooLargeError past it. The stream
 * is cancelled past the cap and when `signal` aborts (the call's timeout), so nothing keeps reading.
 */
export async function readTextCapped(res: Response, capBytes: number, signal?: AbortSignal): Promise<string> {
  const announced = Number(res.headers.get("content-length"));
  if (Number.isFinite(announced) && announced > capBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new UpstreamTooLargeError(capBytes);
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", stop, { once: true });
  try {
    return await readAll(reader, capBytes);
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>, capBytes: number): Promise<string> {
  let read = 0;
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    if (read > capBytes) {
      await reader.cancel().catch(() => undefined);
      throw new UpstreamTooLargeError(capBytes);
    }
    chunks.push(value);
  }
  // One copy and one decode at the end: no string rebuilt per chunk.
  const whole = new Uint8Array(read);
  let at = 0;
  for (const c of chunks) {
    whole.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(whole);
}
