import type { Request, Response } from 'express';
import type { Logger } from 'winston';
import type { AccountService } from '../../core';
import { abortOnDisconnect } from '../abort-on-disconnect';
import type { StreamFunction, SynthesisRequest } from '../app-dependencies';
import { addAccessLogFields, principalOf, requestIdOf, resultLookupOf } from '../request-context';
import { sendAudioStream, wantsCache } from '../streaming/send-stream';
import { formatApplied } from '../streaming/applied-header';
import { usageRecorder } from '../usage-recorder';
import { checkSynthesisText, checkUnicodeText } from '../validation/synthesis-text';
import { sendSpeechEvents } from './send-sse';
import { OPENAI_CONTENT_TYPES, type SpeechBody } from './speech-schema';

/** OpenAI's `pcm` is 24 kHz 16-bit mono little-endian with no header; clients assume that rate. */
export const OPENAI_PCM_SAMPLE_RATE = 24_000;

export interface SpeechRouteOptions {
  readonly accounts: AccountService;
  readonly stream: StreamFunction;
  readonly logger: Logger;
}

/** What a /v1/audio/speech body asks to synthesize, in the gateway's terms. */
export function speechSynthesisRequest(body: SpeechBody): SynthesisRequest {
  const format = body.response_format;
  return {
    model: body.model,
    text: body.input,
    voice: typeof body.voice === 'string' ? body.voice : body.voice.id,
    speed: body.speed,
    pitch: body.pitch,
    volume: body.volume,
    format,
    ...(format === 'pcm' ? { sampleRate: OPENAI_PCM_SAMPLE_RATE } : {}),
    // Empty instructions ask for no style: the request without them (its cached answer, no "ignored").
    ...(body.instructions ? { instructions: body.instructions } : {}),
  };
}

/** Handler of POST /v1/audio/speech: the audio (or its SSE events) as it is made. */
export function createSpeechRoute(options: SpeechRouteOptions) {
  const { accounts, stream, logger } = options;
  const usage = usageRecorder(accounts);
  return async function speech(request: Request, response: Response): Promise<void> {
    const body = request.body as SpeechBody;
    const characters = checkSynthesisText(body.input, 'input');
    // Free text sent on to the provider as well (a voice's style, for gpt-4o-mini-tts).
    if (body.instructions !== undefined) checkUnicodeText(body.instructions, 'instructions');
    const { account } = principalOf(response);
    const requestId = requestIdOf(response);
    const format = body.response_format;
    addAccessLogFields(response, { model: body.model, format, textLength: characters, streamFormat: body.stream_format });
    const disconnect = abortOnDisconnect(response);
    try {
      const synthesis = await stream(speechSynthesisRequest(body), {
        requestId,
        accountId: account.id,
        signal: disconnect.signal,
        useCache: wantsCache(request),
        resultLookup: resultLookupOf(response),
      }).catch((error: unknown) => {
        usage.failed(response, body.model, error);
        throw error;
      });
      addAccessLogFields(response, { provider: synthesis.provider, applied: formatApplied(synthesis.applied) });
      const tokens = () => ({ input_tokens: characters, output_tokens: 0, total_tokens: characters });
      const completed = body.stream_format === 'sse' ? await sendSpeechEvents(response, synthesis, tokens, logger) : await sendAudioStream(response, synthesis, logger, OPENAI_CONTENT_TYPES[format]);
      const { bytes, durationSeconds } = synthesis.progress;
      const made = { model: body.model, characters, bytes, audioSeconds: durationSeconds, cacheHit: synthesis.cache === 'hit' };
      if (completed) usage.served(response, made);
      else usage.unfinished(response, made);
    } finally {
      disconnect.dispose();
    }
  };
}
