import { appliedPlan } from '../../support/applied-plan';
import { GatewayError, type SynthesisStream } from '../../../core';
import type { StreamFunction } from '../../../server/app-dependencies';

/** A stream that sends one piece, then fails as a provider that broke off. */
export const failingAfterFirstPiece: StreamFunction = async (synthesisRequest) => {
  async function* chunks() {
    yield Buffer.from('first piece');
    throw new GatewayError('TTS_ERR_UPSTREAM', 'the provider broke off');
  }
  const stream: SynthesisStream = { format: synthesisRequest.format, applied: appliedPlan(), provider: 'fake', servedBy: 'm/v', instructionsIgnored: false, progress: { bytes: 11 }, chunks: chunks() };
  return stream;
};
