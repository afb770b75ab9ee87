/** Tokens are counted in tenths, so that a success's tenth adds up exactly. */
const TENTHS = 10;
/** Tokens a provider instance starts with, and holds at most. */
const MAX_TENTHS = 100 * TENTHS;

/**
 * The retries one provider instance may still make, shared by all its requests (the token bucket
 * of gRPC's retry throttling): each attempt that fails for a reason a retry could cure takes a
 * token, each success gives a tenth of one back, and retries stop while half the tokens or fewer
 * are left. Without it, a provider failing part of its calls (never enough in a row to open the
 * circuit) got every failed request's retries on top: up to `retries` + 1 times the load while
 * it was already struggling.
 */
export class RetryBudget {
  private tenths = MAX_TENTHS;

  failed(): void {
    this.tenths = Math.max(0, this.tenths - TENTHS);
  }

  succeeded(): void {
    this.tenths = Math.min(MAX_TENTHS, this.tenths + 1);
  }

  allowsRetry(): boolean {
    return this.tenths > MAX_TENTHS / 2;
  }
}
