import { parseErrorJson, readCommonErrorBody, textOf, type UpstreamErrorAnswer, type UpstreamErrorReading } from '../../core';

/**
 * The error bodies OpenAI-shaped servers send: OpenAI's own `{error: {message, type, code}}`
 * (LocalAI, and proxies relaying OpenAI), Kokoro-FastAPI's `{detail: {error, message, type}}`,
 * and FastAPI's `{detail: "..."}` or validation list (core's common reader). A relayed OpenAI
 * `insufficient_quota` is a billing stop, not a rate limit (see plugins/openai/errors.ts).
 */
export function readCompatibleError(answer: UpstreamErrorAnswer): UpstreamErrorReading {
  const body = parseErrorJson(answer.text);
  const nested = [body?.error, body?.detail].find((value) => value !== null && typeof value === 'object' && !Array.isArray(value));
  if (!nested) return readCommonErrorBody(answer.text);
  const fields = nested as Record<string, unknown>;
  const billingStop = fields.code === 'insufficient_quota' || fields.type === 'insufficient_quota';
  return {
    providerMessage: textOf(fields.message),
    providerCode: textOf(fields.code) ?? textOf(fields.error) ?? textOf(fields.type),
    ...(billingStop ? { failure: 'quota' as const } : {}),
  };
}

/** A `modelPattern` that is no regular expression: a configuration error, raised at start. */
export function badModelPattern(pattern: string): Error {
  return new Error(`openai-compatible: modelPattern '${pattern}' is not a valid regular expression`);
}
