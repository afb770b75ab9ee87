/**
 * Runs `check` until it passes, for facts the server records when a response's socket closes,
 * which can come a moment after the client has read the whole answer. Rethrows the last failure.
 */
export async function eventually(check: () => void | Promise<void>, attempts = 100): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await check();
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** Polls `check` until it holds or `limitMs` has passed; answers whether it held (for a test that also asserts it does not). */
export async function holdsWithin(check: () => Promise<boolean>, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}
