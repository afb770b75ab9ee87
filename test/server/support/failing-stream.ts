import request from 'supertest';
import type { Application } from 'express';
import { appliedPlan } from '../../support/applied-plan';
import { GatewayError, type SynthesisRequest, type SynthesisStream } from '../../../core';
import type { StreamFunction } from '../../../server/app-dependencies';

/** A provider stream of the request's format, as a fake provider `m/v` serves it, with these pieces. */
export function fakeStream(synthesisRequest: SynthesisRequest, chunks: AsyncIterable<Uint8Array>, bytes = 0): SynthesisStream {
  return { format: synthesisRequest.format, applied: appliedPlan(), provider: 'fake', servedBy: 'm/v', instructionsIgnored: false, progress: { bytes }, chunks };
}

/** The piece `failingAfterFirstPiece` sends before it fails. */
export const FIRST_PIECE = Buffer.from('first piece');

/** A stream that sends one piece, then fails as a provider that broke off (in the same pass). */
export const failingAfterFirstPiece: StreamFunction = async (synthesisRequest) => {
  async function* chunks() {
    yield FIRST_PIECE;
    throw new GatewayError('TTS_ERR_UPSTREAM', 'the provider broke off');
  }
  return fakeStream(synthesisRequest, chunks(), FIRST_PIECE.length);
};

/** Posts a tts-stream and waits for its end, whichever way it ends (with `failingAfterFirstPiece`, a broken transfer). */
export async function postStreamToItsEnd(app: Application, apiKey: string): Promise<void> {
  await request(app)
    .post('/api/v1/common/tts-stream')
    .set('X-API-Key', apiKey)
    .send({ model: 'espeak-ng', text: 'Hello world', voice: 'en-us' })
    .then(
      () => undefined,
      () => undefined,
    );
}
