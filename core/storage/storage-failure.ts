import { gatewayError } from '../errors';

/** The disk has no room (or the owner's filesystem quota is used up). */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT']);
/** The folder cannot be written at all (mounted read-only, permissions). */
const NOT_WRITABLE = new Set(['EROFS', 'EACCES', 'EPERM']);

/**
 * A failed write as the client should hear it: a full or unwritable store is 507
 * TTS_ERR_STORAGE_FULL (the request was fine, the gateway cannot keep the result; it works again
 * once there is room); anything else passes unchanged.
 */
export function storageFailure(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code !== undefined && NO_ROOM.has(code)) {
    return gatewayError('TTS_ERR_STORAGE_FULL', { subject: "The gateway's audio storage", reason: 'its disk is full' }, { details: [{ reason: 'disk_full' }], cause: error });
  }
  if (code !== undefined && NOT_WRITABLE.has(code)) {
    return gatewayError('TTS_ERR_STORAGE_FULL', { subject: "The gateway's audio storage", reason: 'its folder cannot be written' }, { details: [{ reason: 'not_writable' }], cause: error });
  }
  return error;
}
