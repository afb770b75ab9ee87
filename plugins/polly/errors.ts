import { gatewayError, type GatewayError, parseErrorJson, textOf, type AudioFormat, type UpstreamErrorAnswer, type UpstreamErrorReading } from '../../core';

export const PROVIDER = 'Amazon Polly';

/** Error types AWS uses for throttling; Polly sends them with HTTP 400, not 429. */
const THROTTLING = ['ThrottlingException', 'TooManyRequestsException', 'ThrottledException'];

/** `Polly#ThrottlingException` or `ThrottlingException:http://internal.amazon.com/...` -> the bare type. */
function bareType(raw: string | undefined): string | undefined {
  return raw?.split(':')[0].split('#').pop() || undefined;
}

/**
 * Polly (AWS REST-JSON) names the error in the `x-amzn-ErrorType` header or a `__type` field and
 * its text in `message` (or `Message`). Throttling comes as HTTP 400: it is a rate limit (Polly
 * sends no Retry-After, so clients see core's default wait).
 */
export function readPollyError(answer: UpstreamErrorAnswer): UpstreamErrorReading {
  const body = parseErrorJson(answer.text) ?? {};
  const type = bareType(answer.headers.get('x-amzn-errortype') ?? textOf(body.__type));
  return {
    providerCode: type,
    providerMessage: textOf(body.message) ?? textOf(body.Message),
    // The id AWS support asks for (the SDK's `$metadata.requestId`).
    providerRequestId: textOf(answer.headers.get('x-amzn-requestid')),
    ...(type && THROTTLING.includes(type) ? { failure: 'rate_limit' as const } : {}),
  };
}

export function unknownModel(model: string): GatewayError {
  return gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: PROVIDER, model }, { details: [{ field: 'model', reason: 'unknown' }] });
}

export function notNativeFormat(format: AudioFormat): GatewayError {
  return gatewayError('TTS_ERR_UNSUPPORTED_FORMAT', { subject: PROVIDER, format, reason: 'not a native format of the provider' }, { details: [{ field: 'format', reason: 'not_native' }] });
}
