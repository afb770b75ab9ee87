import { expect } from 'chai';
import type { TtsProvider } from '../../../core';
import { EspeakSynthesisClient } from '../../../plugins/espeak/client';
import espeakPlugin from '../../../plugins/espeak';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { LONG_TEXT, quietContext, synthesisRequest, createProvider } from './harness';

describe('espeak plugin: errors and cancellation', function () {
  this.timeout(60_000);
  let provider: TtsProvider;

  before(async () => {
    provider = await createProvider({ workers: 1 });
  });
  after(() => provider.close?.());

  it('answers 404 TTS_ERR_VOICE_NOT_FOUND for an unknown voice', async () => {
    const error = await expectGatewayError(provider.synthesize(synthesisRequest({ voice: 'xx-nowhere' })));
    expect(error).to.include({ code: 'TTS_ERR_VOICE_NOT_FOUND', status: 404 });
  });

  it('accepts voice ids in any case', async () => {
    const audio = await provider.synthesize(synthesisRequest({ voice: 'EN-US', text: 'hello' }));
    expect(audio.audio.length).to.be.greaterThan(44);
  });

  it('refuses a format it cannot produce natively', async () => {
    const error = await expectGatewayError(provider.synthesize(synthesisRequest({ format: 'opus' })));
    expect(error.code).to.equal('TTS_ERR_UNSUPPORTED_FORMAT');
  });

  it('refuses an unknown model', async () => {
    const error = await expectGatewayError(provider.synthesize(synthesisRequest({ model: 'tts-1' })));
    expect(error.code).to.equal('TTS_ERR_MODEL_NOT_FOUND');
  });

  it('does not start when the request is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await expectGatewayError(provider.synthesize(synthesisRequest({ signal: controller.signal })));
    expect(error.code).to.equal('TTS_ERR_CANCELLED');
  });

  it('stops a running synthesis when the request is cancelled, and the worker serves the next one', async () => {
    const controller = new AbortController();
    const pending = provider.synthesize(synthesisRequest({ text: LONG_TEXT, signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    const error = await expectGatewayError(pending);
    expect(error.code).to.equal('TTS_ERR_CANCELLED');
    const next = await provider.synthesize(synthesisRequest({ text: 'still here' }));
    expect(next.audio.length).to.be.greaterThan(44);
  });

  it('turns a failure inside a worker into a GatewayError', async () => {
    const client = new EspeakSynthesisClient(1);
    try {
      const task = { voiceIdentifier: 'nowhere/xx', text: 'hello', format: 'wav' as const, signal: new AbortController().signal };
      const error = await expectGatewayError(client.synthesize({ ...task, prosody: { rate: 175, pitch: 50, range: 50, gain: 1 } }));
      expect(error.code).to.equal('TTS_ERR_INTERNAL');
      expect(error.message).to.not.match(/\n\s+at /); // no stack trace
    } finally {
      await client.close();
    }
  });

  it('fails the warm-up when the configured default voice does not exist', async () => {
    const misconfigured = await espeakPlugin.create({ workers: 1, defaultVoice: 'xx-nowhere' }, quietContext());
    try {
      const error = await expectGatewayError(misconfigured.warmUp!());
      expect(error.code).to.equal('TTS_ERR_VOICE_NOT_FOUND');
    } finally {
      await misconfigured.close?.();
    }
  });

  it('refuses work after close()', async () => {
    const closing = await createProvider({ workers: 1 });
    await closing.close?.();
    const error = await expectGatewayError(closing.synthesize(synthesisRequest({ text: 'hello' })));
    expect(error.code).to.equal('TTS_ERR_UNAVAILABLE');
  });
});
