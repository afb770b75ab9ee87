import { expect } from 'chai';
import { GatewayError, ModelRouter, type ProviderSynthesisRequest } from '../../../core';
import { wavHeader } from '../../../core/audio/encode/wav-encoder';
import { collect, fixture, gate, MP3_FRAME, request } from './streaming-fixture';

describe('core/synthesis streaming: provider streams, formats and routes', () => {
  it('passes a provider stream through as it arrives when nothing is to be done', async () => {
    const second = gate();
    const received: string[] = [];
    const requests: ProviderSynthesisRequest[] = [];
    const { service, recorder } = fixture({
      synthesizeStream: async (call) => {
        requests.push(call);
        async function* body() {
          yield MP3_FRAME;
          await second.promise;
          yield Buffer.from('rest of the stream');
        }
        return { format: 'mp3', warnings: [], chunks: body() };
      },
    });
    const stream = await service.stream(request({ text: 'A short text that one call takes whole.' }), { requestId: 'r8' });
    const iterator = stream.chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    received.push(`first ${first.value?.byteLength}`);
    second.open();
    const next = await iterator.next();
    received.push(Buffer.from(next.value as Uint8Array).toString());
    expect((await iterator.next()).done).to.equal(true);
    expect(received).to.deep.equal([`first ${MP3_FRAME.byteLength}`, 'rest of the stream']);
    expect(requests).to.have.length(1);
    expect(requests[0].text).to.equal('A short text that one call takes whole.');
    expect(recorder.sessions).to.have.length(0);
    expect(stream.applied.format).to.equal('native');
  });

  it('refuses a provider stream that is not the audio it claims to be', async () => {
    const { service } = fixture({
      synthesizeStream: async () => {
        async function* body() {
          yield Buffer.from('{"error":"this is JSON, not audio at all"}');
        }
        return { format: 'mp3', warnings: [], chunks: body() };
      },
    });
    const code = await service.stream(request({ text: 'Short.' }), { requestId: 'r9' }).then(() => 'resolved', (error: GatewayError) => error.code);
    expect(code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('resamples pcm to the rate the client needs, through a session', async () => {
    const { service, recorder } = fixture({ capabilities: { formats: ['wav', 'pcm'], pcmSampleRate: 22050 } });
    const stream = await service.stream(request({ text: 'Short.', format: 'pcm', sampleRate: 24000 }), { requestId: 'r10' });
    await collect(stream.chunks);
    expect(recorder.sessions[0].spec).to.include({ output: 'pcm', sampleRate: 24000 });
  });

  it('resamples pcm that came at another rate than the model declares (a WAV header on pcm), as the client needs a fixed one', async () => {
    // The model says 24 kHz pcm; its answer is a 16 kHz WAV labelled pcm: the header is stripped, its rate kept.
    const samples = new Uint8Array(320);
    const { service, recorder } = fixture({
      capabilities: { formats: ['pcm'], pcmSampleRate: 24000 },
      label: 'pcm',
      synthesize: async () => Buffer.concat([wavHeader(16000, samples.byteLength), samples]),
    });
    const stream = await service.stream(request({ text: 'Short.', format: 'pcm', sampleRate: 24000 }), { requestId: 'r10b' });
    await collect(stream.chunks);
    expect(recorder.sessions, 'the 16 kHz samples go through a session to 24 kHz').to.have.length(1);
    expect(recorder.sessions[0].spec).to.include({ output: 'pcm', sampleRate: 24000 });
    expect(stream.applied).to.include({ format: 'transcoded', received: 'wav' });
  });

  it('sends instructions only to models that take them, and says when they were ignored', async () => {
    const takes = fixture({ capabilities: { instructions: true } });
    const withInstructions = await takes.service.stream(request({ text: 'Short.', instructions: 'Speak warmly.' }), { requestId: 'r11' });
    await collect(withInstructions.chunks);
    expect(takes.recorder.requests[0].instructions).to.equal('Speak warmly.');
    expect(withInstructions.instructionsIgnored).to.equal(false);

    const ignores = fixture();
    const without = await ignores.service.stream(request({ text: 'Short.', instructions: 'Speak warmly.' }), { requestId: 'r12' });
    await collect(without.chunks);
    expect(ignores.recorder.requests[0].instructions).to.equal(undefined);
    expect(without.instructionsIgnored).to.equal(true);
  });

  it('serves an alias by its target model, mapping the voice', async () => {
    const router = new ModelRouter([{ name: 'tts-1', strategy: 'fallback', targets: [{ model: 'acme-1', voices: { alloy: 'v2' } }] }], (model: string) => model === 'acme-1');
    const { service, recorder } = fixture({ router });
    const stream = await service.stream(request({ model: 'tts-1', voice: 'alloy', text: 'Short.' }), { requestId: 'r13' });
    await collect(stream.chunks);
    expect(recorder.requests[0]).to.include({ model: 'acme-1', voice: 'v2' });
    expect(stream.servedBy).to.equal('acme-1/v2');
  });

  describe('fallback routes', () => {
    const narrator = new ModelRouter(
      [{ name: 'narrator', strategy: 'fallback', targets: [{ model: 'acme-1', voices: { calm: 'v1' } }, { model: 'backup-1', voices: { calm: 'v2' } }] }],
      (model: string) => ['acme-1', 'backup-1'].includes(model),
    );

    it('falls to the next target when the first fails in a way another provider may not', async () => {
      const { service, recorder } = fixture({ router: narrator, failing: { model: 'acme-1', error: new GatewayError('TTS_ERR_UPSTREAM', 'acme is down') } });
      const stream = await service.stream(request({ model: 'narrator', voice: 'calm', text: 'Short.' }), { requestId: 'f1' });
      await collect(stream.chunks);
      expect(recorder.requests.map((call) => `${call.model}/${call.voice}`)).to.deep.equal(['acme-1/v1', 'backup-1/v2']);
      expect(stream.servedBy).to.equal('backup-1/v2');
      expect(stream.provider).to.equal('backup');
    });

    it('does not fall back on the client\'s own error', async () => {
      const { service, recorder } = fixture({ router: narrator, failing: { model: 'acme-1', error: new GatewayError('TTS_ERR_VALIDATION', 'bad text') } });
      const code = await service.stream(request({ model: 'narrator', voice: 'calm', text: 'Short.' }), { requestId: 'f2' }).then(() => 'resolved', (error: GatewayError) => error.code);
      expect(code).to.equal('TTS_ERR_VALIDATION');
      expect(recorder.requests).to.have.length(1);
    });

    it('answers 504 when the first piece is not ready by the deadline, stops the call, and does not fall back', async () => {
      const signals: AbortSignal[] = [];
      const { service, recorder } = fixture({
        router: narrator,
        timeoutMs: 50,
        synthesize: (call) =>
          new Promise((_resolve, reject) => {
            signals.push(call.signal);
            call.signal.addEventListener('abort', () => reject(new GatewayError('TTS_ERR_UPSTREAM', 'the call was cut')));
          }),
      });
      const code = await service.stream(request({ model: 'narrator', voice: 'calm', text: 'Short.' }), { requestId: 'f4' }).then(() => 'resolved', (error: GatewayError) => error.code);
      expect(code).to.equal('TTS_ERR_TIMEOUT');
      expect(recorder.requests).to.have.length(1);
      expect(signals[0].aborted).to.equal(true);
    });

    it("does not fall back when the gateway's own store fails after a target made the audio: no second provider call for one outage", async () => {
      const storeDown = new GatewayError('TTS_ERR_UNAVAILABLE', 'The audio storage is unavailable: S3 answered SlowDown (HTTP 503)', { retryAfterSeconds: 1 });
      const { service, recorder } = fixture({
        router: narrator,
        save: async () => {
          throw storeDown;
        },
      });
      const failure = await service.synthesize(request({ model: 'narrator', voice: 'calm', text: 'Short.', format: 'wav' }), { requestId: 'f5' }).then(() => undefined, (error: unknown) => error);
      expect(failure).to.equal(storeDown);
      expect(recorder.requests.map((call) => call.model)).to.deep.equal(['acme-1']);
    });

    it('falls back for whole files too, and fails with the last error when every target fails', async () => {
      const { service, recorder } = fixture({ router: narrator, failing: { model: 'acme-1', error: new GatewayError('TTS_ERR_UNAVAILABLE', 'breaker open', { retryAfterSeconds: 30 }) } });
      const result = await service.synthesize(request({ model: 'narrator', voice: 'calm', text: 'Short.', format: 'wav' }), { requestId: 'f3' });
      expect(result.servedBy).to.equal('backup-1/v2');
      expect(recorder.requests).to.have.length(2);
    });
  });
});
