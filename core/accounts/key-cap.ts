import { GatewayError, isGatewayError } from '../errors';

/** Live keys one account may hold when `auth.maxKeysPerAccount` is not set. */
export const DEFAULT_MAX_KEYS_PER_ACCOUNT = 100;

/** 409: the account holds as many live keys as it may (or more, after the cap was lowered); nothing was made. */
export function keyCapReached(liveKeys: number, maxLiveKeys: number): GatewayError {
  return new GatewayError(
    'TTS_ERR_CONFLICT',
    `This account has ${liveKeys} live API keys, the most it may have is ${maxLiveKeys}; revoke one before making another`,
    { details: [{ field: 'keys', reason: 'limit' }] },
  );
}

/** Whether a failure is the key cap's 409: a login refused by it had the right password, so it is no failed guess. */
export function isKeyCapReached(error: unknown): boolean {
  return isGatewayError(error) && error.code === 'TTS_ERR_CONFLICT' && error.details.some((detail) => detail.field === 'keys' && detail.reason === 'limit');
}
