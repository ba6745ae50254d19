/**
 * @module memory/serial-queue
 * Runs tasks strictly one after another; a failed task does not block the next. A Durable Object
 * only holds other requests back while it awaits its own storage, so work that awaits D1 or AI and
 * must not interleave (writes, maintenance) goes through a queue like this.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
