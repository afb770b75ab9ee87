import { GatewayError } from '../../errors';

/** Provider audio that cannot be decoded is the provider's fault: a bad upstream response. */
export function undecodable(format: string, reason: string): GatewayError {
  return new GatewayError('TTS_ERR_UPSTREAM_BAD_RESPONSE', `provider returned ${format} audio that cannot be decoded: ${reason}`, {
    details: [{ reason }],
  });
}
