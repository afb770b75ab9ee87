/** Node's and the database drivers' codes: `EACCES`, `SQLITE_CANTOPEN`, `ECONNREFUSED`. */
const CODE = /^[A-Z0-9_]{1,40}$/;
/** S3's error codes as the AWS SDK names its errors: `NoSuchBucket`, `AccessDenied`, `InvalidAccessKeyId`. */
const S3_ERROR_NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;
/** What the SDK names an error whose answer named none: no code at all. */
const NO_NAME = new Set(['Unknown', 'UnknownError']);

interface DescribedError {
  readonly code?: unknown;
  readonly name?: unknown;
  readonly cause?: unknown;
  /** Set by the AWS SDK on an answer S3 gave: its status (`$metadata.httpStatusCode`). */
  readonly $metadata?: { readonly httpStatusCode?: unknown };
}

/**
 * A failed check as the public readiness answer names it: the error's code only, never its
 * message (messages can hold paths, bucket names, a URL with its key). An S3 answer has no `code`:
 * the SDK names the error after S3's code and keeps the status in `$metadata`, which together say
 * what to fix (a missing bucket, a refused key). A name that is no S3 code (the SDK names an
 * answer without a body by its status, or `UnknownError`) is left out.
 */
export function describeFailure(error: unknown, depth = 0): string {
  const failure = error as DescribedError | null;
  const code = failure?.code;
  // The gateway's own error (`TTS_ERR_UNAVAILABLE`) says less than what it wraps (`SQLITE_CORRUPT`, a PostgreSQL SQLSTATE).
  if (typeof code === 'string' && code.startsWith('TTS_ERR_') && failure?.cause !== undefined && depth < 3) {
    const wrapped = describeFailure(failure.cause, depth + 1);
    if (wrapped !== 'failed') return wrapped;
  }
  if (typeof code === 'string' && CODE.test(code)) return `failed (${code})`;
  const metadata = failure?.$metadata;
  if (typeof metadata !== 'object' || metadata === null) return 'failed';
  const status = Number.isInteger(metadata.httpStatusCode) ? `HTTP ${String(metadata.httpStatusCode)}` : undefined;
  const name = typeof failure?.name === 'string' && S3_ERROR_NAME.test(failure.name) && !NO_NAME.has(failure.name) ? failure.name : undefined;
  const parts = [name, status].filter((part) => part !== undefined);
  return parts.length === 0 ? 'failed' : `failed (${parts.join(', ')})`;
}
