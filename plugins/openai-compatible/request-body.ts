import type { ProviderSynthesisRequest } from '../../core';

/**
 * The OpenAI speech body (`model, input, voice, response_format, speed?`). Written here again
 * rather than shared with the `openai` plugin: plugins stay independent packages.
 */
export function buildSpeechBody(request: ProviderSynthesisRequest, upstreamModel: string): Record<string, unknown> {
  return {
    model: upstreamModel,
    input: request.text,
    voice: request.voice,
    response_format: request.format,
    ...(request.speed !== undefined ? { speed: request.speed } : {}),
  };
}
