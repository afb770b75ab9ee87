import type { ProviderSynthesisRequest } from '../../core';

/** The JSON body of `POST /v1/audio/speech`. */
export interface SpeechBody {
  readonly model: string;
  readonly input: string;
  readonly voice: string;
  readonly response_format: string;
  readonly speed?: number;
  readonly instructions?: string;
}

/**
 * Maps a planned request to OpenAI's fields: the gateway's speed multiplier is OpenAI's `speed`
 * as it is (the planner passes it only inside 0.25..4.0 and omits 1.0); pitch and volume are
 * never native here, the gateway applies them.
 */
export function buildSpeechBody(request: ProviderSynthesisRequest, instructions?: string): SpeechBody {
  return {
    model: request.model,
    input: request.text,
    voice: request.voice,
    response_format: request.format,
    ...(request.speed !== undefined ? { speed: request.speed } : {}),
    ...(instructions !== undefined ? { instructions } : {}),
  };
}
