/** Maps items with at most `concurrency` calls in flight, keeping the input order. */
export async function boundedMap<Item, Result>(
  items: readonly Item[],
  concurrency: number,
  work: (item: Item, index: number) => Promise<Result>,
): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  const run = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index], index);
    }
  };
  // A loop, not Array.from({ length }): V8 takes that array-like on its slow path (measured on the request path).
  const runners: Promise<void>[] = [];
  for (let count = Math.max(1, Math.min(concurrency, items.length)); runners.length < count; ) runners.push(run());
  await Promise.all(runners);
  return results;
}
