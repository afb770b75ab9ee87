import type { S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { gatewayError, type GatewayError } from '../errors';
import { audioNotFound, AUDIO_FILE_NAME_PATTERN, newAudioFileName, parseAudioFileName } from './audio-file-name';
import type { AudioStore, ByteRange, LocatedAudio, ReadOptions, SaveAudioOptions, SavedAudio } from './audio-store';
import { isMissingBucket, S3BucketCheck } from './s3-bucket-check';
import { uploadInParts } from './s3-multipart-upload';
import { startSweeper } from './sweeper';

/** S3's smallest part (5 MiB) would mean many requests; 8 MiB parts from 16 MiB up. */
const DEFAULT_MULTIPART_THRESHOLD = 16 * 1024 * 1024;
const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
/** DeleteObjects takes at most 1000 keys. */
const DELETE_BATCH = 1000;
/** The readiness check's object; one whose delete failed is swept as expired audio is. */
const PROBE_PREFIX = '.probe-';
const PROBE_NAME_PATTERN = /^\.probe-[0-9a-f]{12}$/;

// The AWS SDK is loaded at the first call (about 40 MB and 150 ms), not by every gateway that imports core.
const s3Sdk = (): typeof import('@aws-sdk/client-s3') => require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');

export interface S3AudioStoreOptions {
  readonly client: S3Client;
  readonly bucket: string;
  /** Folder-like prefix of every key (`audio/`), so that a bucket can be shared; empty by default. */
  readonly prefix?: string;
  readonly retentionMs: number;
  /** Files of this size or more go up as a multipart upload. */
  readonly multipartThreshold?: number;
  readonly partSize?: number;
  /** Clock, replaceable in tests. */
  readonly now?: () => number;
  readonly onSweepError?: (error: unknown) => void;
}

/**
 * An S3 failure as the client should hear it: the store is unavailable (503, worth a retry), not
 * a bug (500). The S3 error's name and status say which (SlowDown, AccessDenied, a timeout); its
 * message, which may name the bucket and key, stays the cause.
 */
function storageUnavailable(error: unknown): GatewayError {
  const failure = error as { name?: unknown; $metadata?: { httpStatusCode?: unknown } } | null;
  const name = typeof failure?.name === 'string' ? failure.name : 'an error';
  const status = typeof failure?.$metadata?.httpStatusCode === 'number' ? ` (HTTP ${failure.$metadata.httpStatusCode})` : '';
  return gatewayError('TTS_ERR_UNAVAILABLE', { provider: "The gateway's audio storage", reason: `S3 answered ${name}${status}` }, { cause: error });
}

/** A failed read stopped by its caller's signal (a deadline, a client that left) rejects with the signal's reason. */
function readFailure(error: unknown, signal: AbortSignal | undefined): unknown {
  return signal?.aborted ? signal.reason : storageUnavailable(error);
}

/** A missing object; never a missing bucket (a GET's NoSuchBucket is a 404 too), which is an outage. */
function isMissing(error: unknown): boolean {
  if (isMissingBucket(error)) return false;
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return failure?.name === 'NotFound' || failure?.name === 'NoSuchKey' || failure?.$metadata?.httpStatusCode === 404;
}

/**
 * AudioStore on an S3-compatible bucket (AWS S3, MinIO, Ceph, R2), shared by every replica. An
 * object appears whole or not at all, so a download on another replica never sees half a file.
 * Expiry follows the object's LastModified, as the folder store follows mtime.
 */
export class S3AudioStore implements AudioStore {
  private readonly prefix: string;
  private readonly now: () => number;
  private readonly bucketCheck: S3BucketCheck;

  constructor(private readonly options: S3AudioStoreOptions) {
    this.prefix = options.prefix ?? '';
    this.now = options.now ?? Date.now;
    this.bucketCheck = new S3BucketCheck(options.client, options.bucket, this.now);
  }

  async save(bytes: Uint8Array, extension: string, options: SaveAudioOptions = {}): Promise<SavedAudio> {
    const { fileName } = newAudioFileName(extension, options.sampleRate);
    const params = { Bucket: this.options.bucket, Key: this.prefix + fileName, Body: bytes, ContentType: 'application/octet-stream', ContentLength: bytes.byteLength };
    const { signal } = options;
    signal?.throwIfAborted();
    try {
      if (bytes.byteLength >= (this.options.multipartThreshold ?? DEFAULT_MULTIPART_THRESHOLD)) {
        const { ContentLength: _length, ...multipart } = params;
        // A failed or stopped upload aborts itself, leaving no parts to pay for.
        await uploadInParts(this.options.client, multipart, { partSize: this.options.partSize ?? DEFAULT_PART_SIZE, signal });
      } else {
        // The request's deadline stops the PUT: a stalled S3 must not hold the request past it.
        await this.options.client.send(new (s3Sdk().PutObjectCommand)(params), { abortSignal: signal });
      }
    } catch (error) {
      // Stopped midway, the object may still land: no one was given its name, so it goes (best effort).
      if (signal?.aborted) {
        void this.options.client.send(new (s3Sdk().DeleteObjectCommand)({ Bucket: this.options.bucket, Key: params.Key })).catch(() => undefined);
        // The signal's reason, as a stopped folder save rejects (not the SDK's own 'Upload aborted.').
        throw signal.reason;
      }
      throw storageUnavailable(error);
    }
    return { fileName, size: bytes.byteLength };
  }

  async locate(fileName: string, options: ReadOptions = {}): Promise<LocatedAudio | undefined> {
    const { extension, sampleRate } = parseAudioFileName(fileName);
    const key = this.prefix + fileName;
    const { signal } = options;
    // The caller's signal stops the HEAD: a stalled S3 must not hold a cache hit past its deadline.
    const head = await this.options.client.send(new (s3Sdk().HeadObjectCommand)({ Bucket: this.options.bucket, Key: key }), { abortSignal: signal }).catch(async (error: unknown) => {
      if (!isMissing(error)) throw readFailure(error, signal);
      // A HEAD's 404 has no body to tell a missing object from a missing bucket: S3 is asked which.
      if (!(await this.bucketCheck.exists())) throw storageUnavailable(Object.assign(new Error('the bucket does not exist'), { name: 'NoSuchBucket', $metadata: { httpStatusCode: 404 }, cause: error }));
      return undefined;
    });
    if (!head?.LastModified || head.ContentLength === undefined) return undefined;
    const expiresAt = head.LastModified.getTime() + this.options.retentionMs;
    if (expiresAt <= this.now()) return undefined;
    return {
      size: head.ContentLength,
      mtime: head.LastModified,
      extension,
      sampleRate,
      expiresAt: new Date(expiresAt),
      open: (range, openOptions) => this.open(key, range, openOptions?.signal),
    };
  }

  private async open(key: string, range: ByteRange | undefined, signal: AbortSignal | undefined): Promise<Readable> {
    // As the PUT: the caller's signal stops the GET (its body is stopped by the reader, see readStoredAudio).
    const answer = await this.options.client
      .send(new (s3Sdk().GetObjectCommand)({ Bucket: this.options.bucket, Key: key, ...(range && { Range: `bytes=${range.start}-${range.end}` }) }), { abortSignal: signal })
      .catch((error: unknown) => Promise.reject(isMissing(error) ? audioNotFound() : readFailure(error, signal)));
    if (!(answer.Body instanceof Readable)) throw new Error('the S3 client answered without a Node.js stream body');
    return answer.Body;
  }

  async sweep(): Promise<number> {
    const cutoff = this.now() - this.options.retentionMs;
    let removed = 0;
    // Objects S3 would not delete (an object lock, a policy on some keys): the sweep goes on past
    // them, or every later page would be left to grow, and reports them at its end.
    let refused = 0;
    let firstRefusal: string | undefined;
    let continuationToken: string | undefined;
    do {
      const page = await this.options.client.send(new (s3Sdk().ListObjectsV2Command)({ Bucket: this.options.bucket, Prefix: this.prefix || undefined, ContinuationToken: continuationToken }));
      const expired = (page.Contents ?? []).filter((object) => {
        const name = object.Key?.slice(this.prefix.length) ?? '';
        const ours = AUDIO_FILE_NAME_PATTERN.test(name) || PROBE_NAME_PATTERN.test(name);
        return ours && object.LastModified !== undefined && object.LastModified.getTime() <= cutoff;
      });
      for (let start = 0; start < expired.length; start += DELETE_BATCH) {
        const batch = expired.slice(start, start + DELETE_BATCH).map((object) => ({ Key: object.Key as string }));
        const answer = await this.options.client.send(new (s3Sdk().DeleteObjectsCommand)({ Bucket: this.options.bucket, Delete: { Objects: batch, Quiet: false } }));
        removed += answer.Deleted?.length ?? 0;
        refused += answer.Errors?.length ?? 0;
        firstRefusal ??= answer.Errors?.[0]?.Code;
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
    if (refused > 0) throw new Error(`S3 refused to delete ${refused} expired audio objects (first: ${firstRefusal}); ${removed} deleted`);
    return removed;
  }

  /** Puts and deletes a small object beside the audio (a name no download can ask for). */
  async checkWritable(): Promise<void> {
    // If the delete fails (or is refused in its quiet answer), the sweeper removes it once expired.
    const key = `${this.prefix}${PROBE_PREFIX}${randomBytes(6).toString('hex')}`;
    await this.options.client.send(new (s3Sdk().PutObjectCommand)({ Bucket: this.options.bucket, Key: key, Body: 'ok', ContentType: 'text/plain' }));
    await this.options.client.send(new (s3Sdk().DeleteObjectsCommand)({ Bucket: this.options.bucket, Delete: { Objects: [{ Key: key }], Quiet: true } }));
  }

  startSweeper(intervalMs: number): () => void {
    return startSweeper(() => this.sweep(), intervalMs, this.options.onSweepError);
  }
}
