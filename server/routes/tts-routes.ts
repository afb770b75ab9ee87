import type { Request, Response } from 'express';
import type { Logger } from 'winston';
import type { AccountService } from '../../core';
import { abortOnDisconnect } from '../abort-on-disconnect';
import type { StreamFunction, SynthesisResult, SynthesisRequest, SynthesizeFunction } from '../app-dependencies';
import { sendSuccess } from '../envelope';
import { addAccessLogFields, principalOf, requestIdOf, resultLookupOf } from '../request-context';
import { sendAudioStream, setSynthesisHeaders, wantsCache } from '../streaming/send-stream';
import { formatApplied } from '../streaming/applied-header';
import { usageRecorder } from '../usage-recorder';
import { requestOrigin } from '../validation/request-origin';
import { checkSynthesisText } from '../validation/synthesis-text';

export interface TtsRoutesOptions {
  readonly accounts: AccountService;
  readonly synthesize: SynthesizeFunction;
  readonly stream: StreamFunction;
  readonly logger: Logger;
  /** Base of `audio_url`; undefined = the request's own origin. */
  readonly publicBaseUrl?: string;
}

/** What a tts-sync or tts-stream body asks to synthesize (the validated body, its fields only). */
export function ttsSynthesisRequest(body: SynthesisRequest): SynthesisRequest {
  const { model, text, voice, speed, pitch, volume, format } = body;
  return { model, text, voice, speed, pitch, volume, format };
}

/** Handlers of POST /api/v1/common/tts-sync (a stored file) and tts-stream (the audio as it is made). */
export function createTtsRoutes(options: TtsRoutesOptions) {
  const { accounts, synthesize, stream, logger } = options;
  const fixedBase = options.publicBaseUrl?.replace(/\/+$/, '');
  const usage = usageRecorder(accounts);

  return {
    async synthesize(request: Request, response: Response): Promise<void> {
      const body = request.body as SynthesisRequest;
      const characters = checkSynthesisText(body.text);
      // Checked before any work: the link is built on it.
      const base = fixedBase ?? requestOrigin(request);
      const { account } = principalOf(response);
      const requestId = requestIdOf(response);
      const disconnect = abortOnDisconnect(response);
      const { model, format } = body;
      addAccessLogFields(response, { model, format, textLength: characters });
      let outcome: SynthesisResult;
      try {
        outcome = await synthesize(ttsSynthesisRequest(body), {
          requestId,
          accountId: account.id,
          signal: disconnect.signal,
          useCache: wantsCache(request),
          resultLookup: resultLookupOf(response),
        });
      } catch (error) {
        usage.failed(response, model, error);
        throw error;
      } finally {
        disconnect.dispose();
      }
      addAccessLogFields(response, { provider: outcome.provider ?? 'unknown', applied: formatApplied(outcome.applied) });
      const made = { model, characters, bytes: outcome.size, audioSeconds: outcome.durationSeconds, cacheHit: outcome.cache === 'hit' };
      // A synthesis that could not be called off finished after its client left: nobody gets the
      // link, and the limits gave its characters back on the 'close', so it is billed none either.
      if (response.destroyed) return usage.unfinished(response, made);
      // Written later in a batch, off the request path: the answer does not wait for it.
      usage.served(response, made);
      setSynthesisHeaders(response, outcome);
      sendSuccess(response, 'Speech synthesized', {
        request_id: requestId,
        audio_url: `${base}/api/v1/audio/download/${encodeURIComponent(outcome.fileName)}`,
        file_size: outcome.size,
      });
    },

    async stream(request: Request, response: Response): Promise<void> {
      const body = request.body as SynthesisRequest;
      const characters = checkSynthesisText(body.text);
      const { account } = principalOf(response);
      const requestId = requestIdOf(response);
      const { model, format } = body;
      addAccessLogFields(response, { model, format, textLength: characters });
      const disconnect = abortOnDisconnect(response);
      try {
        const context = { requestId, accountId: account.id, signal: disconnect.signal, useCache: wantsCache(request), resultLookup: resultLookupOf(response) };
        const synthesis = await stream(ttsSynthesisRequest(body), context).catch((error: unknown) => {
          usage.failed(response, model, error);
          throw error;
        });
        addAccessLogFields(response, { provider: synthesis.provider, applied: formatApplied(synthesis.applied) });
        const completed = await sendAudioStream(response, synthesis, logger);
        const made = { model, characters, bytes: synthesis.progress.bytes, audioSeconds: synthesis.progress.durationSeconds, cacheHit: synthesis.cache === 'hit' };
        if (completed) usage.served(response, made);
        else usage.unfinished(response, made);
      } finally {
        disconnect.dispose();
      }
    },
  };
}
