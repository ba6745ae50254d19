/**
 * @module router/stream-relay
 * Passes an upstream answer's body to the client chunk by chunk, as it comes (nothing buffered,
 * nothing changed), and tells the caller how it ended: `complete` when the upstream finished it,
 * `cancelled` when the client went away (the upstream read is cancelled with it, which closes the
 * upstream request) and `failed` when the upstream broke off.
 */
export type RelayEnd = "complete" | "cancelled" | "failed";

export function relay(body: ReadableStream<Uint8Array>, onEnd: (end: RelayEnd) => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const end = (how: RelayEnd) => {
    if (ended) return;
    ended = true;
    onEnd(how);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          end("failed");
          controller.error(err);
          return;
        }
        if (chunk.done) {
          controller.close();
          end("complete");
        } else controller.enqueue(chunk.value);
      },
      async cancel(reason) {
        end("cancelled");
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
