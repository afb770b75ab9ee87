/**
 * An async generator that has not started skips its `finally` when it is closed: a stream handed
 * on and closed before its first read would keep its work (provider calls, an audio session, its
 * share of the look-ahead) running. This wraps it so that such a close runs `closeUnstarted`.
 */
export function closeBeforeStart<Item>(generator: AsyncGenerator<Item>, closeUnstarted: () => Promise<void>): AsyncIterable<Item> {
  let started = false;
  const iterator: AsyncIterator<Item> = {
    next: () => {
      started = true;
      return generator.next();
    },
    return: async (value?: unknown) => {
      if (!started) {
        started = true;
        await closeUnstarted();
      }
      return generator.return(value as never);
    },
    throw: (error?: unknown) => generator.throw(error),
  };
  return { [Symbol.asyncIterator]: () => iterator };
}

/** Closes an iterable's iterator without reading it (what `break` before the first item does). */
export async function closeUnread(iterable: AsyncIterable<unknown>): Promise<void> {
  await iterable[Symbol.asyncIterator]().return?.(undefined);
}
