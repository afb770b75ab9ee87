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
