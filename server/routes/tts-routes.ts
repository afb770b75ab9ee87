import type { Request, Response } from 'express';
import type { Logger } from 'winston';
import type { AccountService } from '../../core';
import { abortOnDisconnect } from '../abort-on-disconnect';
import type { SynthesisRequest, SynthesizeFunction } from '../app-dependencies';
import { sendSuccess } from '../envelope';
import { addAccessLogFields, principalOf, requestIdOf } from '../request-context';
import { checkSynthesisText } from '../validation/synthesis-text';

export interface TtsRoutesOptions {
  readonly accounts: AccountService;
  readonly synthesize: SynthesizeFunction;
  readonly logger: Logger;
  /** Base of `audio_url`; undefined = the request's own origin. */
  readonly publicBaseUrl?: string;
}

/** Header values must be visible ASCII; anything else is replaced rather than rejected. */
const headerSafe = (value: string): string => value.replace(/[^\x20-\x7e]/g, '?').slice(0, 500);

/** Handler of POST /api/v1/common/tts-sync. */
export function createTtsRoutes(options: TtsRoutesOptions) {
  const { accounts, synthesize, logger } = options;
  const fixedBase = options.publicBaseUrl?.replace(/\/+$/, '');

  return {
    async synthesize(request: Request, response: Response): Promise<void> {
      const body = request.body as SynthesisRequest;
      const characters = checkSynthesisText(body.text);
      const { account, keyId } = principalOf(response);
      const requestId = requestIdOf(response);
      const disconnect = abortOnDisconnect(response);
      const { model, text, voice, speed, pitch, volume, format } = body;
      addAccessLogFields(response, { model, format, textLength: characters });
      const outcome = await synthesize(
        { model, text, voice, speed, pitch, volume, format },
        { requestId, accountId: account.id, signal: disconnect.signal },
      ).finally(() => disconnect.dispose());
      addAccessLogFields(response, { provider: outcome.provider ?? 'unknown', applied: outcome.applied });
      // Losing one usage row must not turn a finished synthesis into an error.
      await accounts.recordUsage(account.id, keyId, { model, characters, bytes: outcome.size }).catch((error: unknown) => {
        logger.warn('usage not recorded', { requestId, errorMessage: error instanceof Error ? error.message : String(error) });
      });
      const base = fixedBase ?? `${request.protocol}://${request.get('host') ?? 'localhost'}`;
      response.setHeader('X-TTS-Applied', headerSafe(outcome.applied));
      sendSuccess(response, 'Speech synthesized', {
        request_id: requestId,
        audio_url: `${base}/api/v1/audio/download/${encodeURIComponent(outcome.fileName)}`,
        file_size: outcome.size,
      });
    },
  };
}
