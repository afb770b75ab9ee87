import type { S3Client } from '@aws-sdk/client-s3';

// Loaded at the first check, as the store loads it (see s3-audio-store.ts).
const s3Sdk = (): typeof import('@aws-sdk/client-s3') => require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');

/** How long one answer about the bucket stands: a burst of misses asks S3 once, a bucket made again is seen within seconds. */
const ANSWER_HOLDS_MS = 5_000;

/** A bucket that does not exist (deleted, misnamed): S3's own words for it, on a GET or HeadBucket. */
export function isMissingBucket(error: unknown): boolean {
  const failure = error as { name?: unknown; Code?: unknown } | null;
  return failure?.name === 'NoSuchBucket' || failure?.Code === 'NoSuchBucket';
}

/**
 * Whether the store's bucket exists, asked only when a HEAD of an object answered 404: S3 then
 * sends no body, so "no such object" and "no such bucket" look the same, and the second is an
 * outage (every file would look gone, and the result cache would drop every entry). One
 * HeadBucket answers every miss for a few seconds; only its 404 says the bucket is missing (any
 * other failure leaves the miss a miss, as it was).
 */
export class S3BucketCheck {
  private answer?: { readonly at: number; readonly exists: Promise<boolean> };

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly now: () => number,
  ) {}

  exists(): Promise<boolean> {
    if (this.answer && this.now() - this.answer.at < ANSWER_HOLDS_MS) return this.answer.exists;
    const exists = this.client.send(new (s3Sdk().HeadBucketCommand)({ Bucket: this.bucket })).then(
      () => true,
      (error: unknown) => !(isMissingBucket(error) || (error as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata?.httpStatusCode === 404),
    );
    this.answer = { at: this.now(), exists };
    return exists;
  }
}
