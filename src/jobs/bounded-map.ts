/**
 * @module jobs/bounded-map
 * Maps items through an async function with at most `concurrency` calls in flight, keeping order.
 * The cron fans out to many users' Durable Objects; this keeps the run's subrequests bounded.
 */
export async function boundedMap<T, R>(
  items: T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}
