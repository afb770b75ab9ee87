import { gatewayError, type GatewayError, parseErrorJson, readCommonErrorBody, textOf, type UpstreamErrorAnswer, type UpstreamErrorReading } from '../../core';
import { readRetryAdvice } from './retry-advice';

export const PROVIDER = 'OpenAI';

/**
 * OpenAI's error body is `{error: {message, type, param, code}}`. A 429 whose code (or type) is
 * `insufficient_quota` is not a rate limit but a billing stop: "You exceeded your current quota,
 * please check your plan and billing details" (platform.openai.com/docs/guides/error-codes).
 * Retrying it never helps, so it is a quota failure with no Retry-After.
 */
export function readOpenAiError(answer: UpstreamErrorAnswer): UpstreamErrorReading {
  // The id OpenAI's support asks for (openai-node src/core/error.ts reads it from this header).
  const providerRequestId = textOf(answer.headers.get('x-request-id'));
  const advice = readRetryAdvice(answer.headers);
  const error = parseErrorJson(answer.text)?.error;
  if (error === null || typeof error !== 'object') return { ...readCommonErrorBody(answer.text), providerRequestId, ...advice };
  const fields = error as Record<string, unknown>;
  const billingStop = fields.code === 'insufficient_quota' || fields.type === 'insufficient_quota';
  return {
    providerMessage: textOf(fields.message),
    providerCode: textOf(fields.code) ?? textOf(fields.type),
    providerRequestId,
    ...advice,
    ...(billingStop ? { failure: 'quota' as const } : {}),
  };
}

export function unknownModel(model: string): GatewayError {
  return gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: PROVIDER, model });
}
