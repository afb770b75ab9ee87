import { gatewayError, type GatewayError } from '../../errors';

/** Provider audio that cannot be decoded is the provider's fault: a bad upstream response. */
export function undecodable(format: string, reason: string): GatewayError {
  return gatewayError('TTS_ERR_UPSTREAM_BAD_RESPONSE', { provider: 'The provider', problem: `its ${format} audio cannot be decoded (${reason})` }, {
    details: [{ reason }],
  });
}
