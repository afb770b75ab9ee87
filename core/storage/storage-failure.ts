import { durationText, gatewayError, type GatewayError } from '../errors';

/** The disk has no room (or the owner's filesystem quota is used up). */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT']);
/** The folder cannot be written at all (mounted read-only, permissions). */
const NOT_WRITABLE = new Set(['EROFS', 'EACCES', 'EPERM']);
/** The process (EMFILE) or the whole system (ENFILE) has no file descriptor left: an outage that passes. */
const NO_DESCRIPTORS = new Set(['EMFILE', 'ENFILE']);

/**
 * A file system error without its paths: a stored file's name is its download capability, and
 * Node's messages name the file (`ENOENT: ... open '/data/audio/<name>'`), so they must not
 * reach a log line as they are. The original stays as the cause.
 */
export function withoutPath(error: unknown): unknown {
  const failure = error as NodeJS.ErrnoException | null;
  if (!failure?.code || !failure.syscall) return error;
  const safe = new Error(`the audio store's ${failure.syscall} failed (${failure.code})`, { cause: error });
  return Object.assign(safe, { code: failure.code, syscall: failure.syscall });
}

/**
 * A failed write as the client should hear it: a full or unwritable store is 507
 * TTS_ERR_STORAGE_FULL (the request was fine, the gateway cannot keep the result; it works again
 * once there is room); any other file system error loses its paths; the rest passes unchanged.
 */
export function storageFailure(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code !== undefined && NO_DESCRIPTORS.has(code)) return outOfDescriptors(code, error);
  if (code !== undefined && NO_ROOM.has(code)) {
    return gatewayError('TTS_ERR_STORAGE_FULL', { subject: "The gateway's audio storage", reason: 'its disk is full' }, { details: [{ reason: 'disk_full' }], cause: error });
  }
  if (code !== undefined && NOT_WRITABLE.has(code)) {
    return gatewayError('TTS_ERR_STORAGE_FULL', { subject: "The gateway's audio storage", reason: 'its folder cannot be written' }, { details: [{ reason: 'not_writable' }], cause: error });
  }
  return withoutPath(error);
}

/**
 * A file the folder store cannot look at or open now, for a reason other than its being gone
 * (a disk's EIO, a permission, a link loop): the store is unavailable (503), as the S3 store
 * answers an S3 failure, and not "no such file", which would make the result cache drop its
 * entry. The paths stay out (see withoutPath); the original stays the cause.
 */
export function storageReadFailure(error: unknown): GatewayError {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? 'an error';
  if (NO_DESCRIPTORS.has(code)) return outOfDescriptors(code, error);
  return gatewayError('TTS_ERR_UNAVAILABLE', { provider: "The gateway's audio storage", reason: `its folder could not be read (${code})` }, { details: [{ reason: 'storage_read_failed' }], cause: error });
}

/**
 * The store did not find a file or start sending it within `limitMs` (a stalled S3, a hung
 * mount): unavailable for now (503, worth a retry), as a failing store is. Neither path nor key.
 */
export function storageTimedOut(limitMs: number): GatewayError {
  return gatewayError('TTS_ERR_UNAVAILABLE', { provider: "The gateway's audio storage", reason: `it did not answer within ${durationText(limitMs)}` }, { details: [{ reason: 'storage_timeout' }] });
}

/**
 * No file descriptor left to save or open a file (too many open connections and files, or a
 * leak): neither a full disk nor the client's fault, and it passes once some close, so 503
 * TTS_ERR_UNAVAILABLE with Retry-After, its code in the message so the log line names it.
 */
function outOfDescriptors(code: string, error: unknown): GatewayError {
  return gatewayError('TTS_ERR_UNAVAILABLE', { provider: "The gateway's audio storage", reason: `the gateway has no file descriptors left (${code})` }, { details: [{ reason: 'out_of_file_descriptors' }], retryAfterSeconds: 1, cause: error });
}
