import { gatewayError } from '../errors';
import type { StoredBytes } from './owner-ledger';

/** What the quota needs of the store: the bytes an owner holds. */
export interface StoredBytesSource {
  storedBytes(owner: string): Promise<StoredBytes>;
}

/**
 * `limits.storageBytes`: an account whose live audio files already hold this much gets no new
 * one until some expire (507, with Retry-After until its oldest file expires). Checked before
 * synthesis, so no work is spent on audio that could not be kept.
 */
export class StorageQuota {
  constructor(
    private readonly store: StoredBytesSource,
    private readonly limitBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  async check(owner: string): Promise<void> {
    const stored = await this.store.storedBytes(owner);
    if (stored.bytes < this.limitBytes) return;
    const waitMs = stored.oldestExpiresAt === undefined ? undefined : Math.max(0, stored.oldestExpiresAt - this.now());
    throw gatewayError(
      'TTS_ERR_STORAGE_FULL',
      { subject: "This account's audio storage", reason: `its files hold ${stored.bytes} bytes of its ${this.limitBytes}; older files expire first` },
      {
        details: [{ reason: 'storage_quota', storedBytes: stored.bytes, limitBytes: this.limitBytes }],
        ...(waitMs === undefined ? {} : { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }),
      },
    );
  }
}
