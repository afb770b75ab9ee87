import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import OpenAI from 'openai';
import { decodeAudio, encodableFormats, type AudioFormat, type LoadedProvider, type ProviderSynthesisRequest } from '../../core';
import { TOKENS } from '../../server/container-tokens';
import { startTestGateway } from './gateway-harness';

const SENTENCES = Array.from({ length: 30 }, (_value, index) => `Sentence number ${index + 1} is spoken by the embedded engine.`).join(' ');

/** Reads a fetch Response body piece by piece, calling `onPiece` as each arrives. */
async function readBody(response: Response, onPiece?: (piece: Uint8Array) => void): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    onPiece?.(next.value);
    parts.push(next.value);
  }
  return Buffer.concat(parts);
}

describe('e2e: the official openai SDK against the zero-config gateway', function () {
  this.timeout(120_000);
  let dispose: () => Promise<void>;
  let server: Server;
  let client: OpenAI;
  let baseURL: string;
  let apiKey: string;
  let provider: LoadedProvider['provider'];
  /** Provider calls as they start and finish, and what the client saw, in order. */
  const events: string[] = [];
  let calls = 0;

  before(async () => {
    const started = await startTestGateway();
    dispose = started.dispose;
    server = createServer(started.gateway.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    // Record every call the gateway makes to the embedded engine.
    const [espeak] = started.gateway.container.resolve<LoadedProvider[]>(TOKENS.providers);
    provider = espeak.provider;
    const synthesize = provider.synthesize.bind(provider);
    provider.synthesize = async (request: ProviderSynthesisRequest) => {
      const call = ++calls;
      events.push(`call ${call} started`);
      const audio = await synthesize(request);
      events.push(`call ${call} finished`);
      return audio;
    };
    const registered = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'sdk@example.com', password: 'password-123' }),
    });
    apiKey = ((await registered.json()) as { data: { apiKey: string } }).data.apiKey;
    client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await dispose?.();
  });

  it('lists the models, OpenAI names among them, and one model by id', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).to.include.members(['espeak-ng', 'tts-1', 'tts-1-hd', 'gpt-4o-mini-tts']);
    const one = await client.models.retrieve('tts-1');
    expect(one).to.include({ id: 'tts-1', object: 'model', owned_by: 'tts-gateway' });
  });

  const formats: AudioFormat[] = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];
  for (const format of formats) {
    it(`speaks ${format} that decodes to real speech`, async function () {
      if (format === 'aac' && !encodableFormats().includes('aac')) throw new Error('ffmpeg is missing: apt-get install ffmpeg (CI installs it)');
      const response = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello from the gateway. This is a test.', response_format: format });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const decoded = await decodeAudio(bytes, format, format === 'pcm' ? 24_000 : undefined);
      const seconds = decoded.samples.length / decoded.sampleRate;
      expect(seconds, `${format} duration`).to.be.within(1, 8);
      const peak = decoded.samples.reduce((max, sample) => Math.max(max, Math.abs(sample)), 0);
      expect(peak, `${format} is not silence`).to.be.greaterThan(0.05);
      if (format === 'pcm') expect(response.headers.get('content-type')).to.equal('audio/pcm');
    });
  }

  it('takes the voice as an {id} object and maps OpenAI voice names to distinct voices', async () => {
    const alloy = new Uint8Array(await (await client.audio.speech.create({ model: 'tts-1', voice: { id: 'alloy' }, input: 'The same words.', response_format: 'wav' })).arrayBuffer());
    const onyx = new Uint8Array(await (await client.audio.speech.create({ model: 'tts-1', voice: 'onyx', input: 'The same words.', response_format: 'wav' })).arrayBuffer());
    expect(Buffer.compare(Buffer.from(alloy), Buffer.from(onyx))).not.to.equal(0);
    const voices = (await (await fetch(`${baseURL}/audio/voices?model=tts-1`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as { voices: { id: string }[] };
    expect(voices.voices.map((voice) => voice.id)).to.include.members(['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer', 'verse', 'marin', 'cedar']);
  });

  it('raises the SDK typed errors', async () => {
    const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);
    const badKey = new OpenAI({ apiKey: 'ttsg_not-a-real-key-not-a-real-key-not-a-real', baseURL, maxRetries: 0 });
    expect(await failure(badKey.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x' }))).to.be.instanceOf(OpenAI.AuthenticationError);
    const unknownModel = await failure(client.audio.speech.create({ model: 'tts-9', voice: 'alloy', input: 'x' }));
    expect(unknownModel).to.be.instanceOf(OpenAI.NotFoundError);
    expect((unknownModel as InstanceType<typeof OpenAI.NotFoundError>).code).to.equal('model_not_found');
    const unknownVoice = await failure(client.audio.speech.create({ model: 'tts-1', voice: 'nobody-at-all', input: 'x' }));
    expect(unknownVoice).to.be.instanceOf(OpenAI.BadRequestError);
    expect((unknownVoice as InstanceType<typeof OpenAI.BadRequestError>).param).to.equal('voice');
    for (const params of [
      { input: '' },
      { input: 'x', speed: 5 },
      { input: 'a'.repeat(10_001) },
    ]) {
      const error = await failure(client.audio.speech.create({ model: 'tts-1', voice: 'alloy', ...params }));
      expect(error, JSON.stringify(params).slice(0, 40)).to.be.instanceOf(OpenAI.BadRequestError);
    }
  });

  it('streams: the first bytes arrive before the last sentence is synthesized', async () => {
    events.length = 0;
    const response = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: SENTENCES, response_format: 'mp3' });
    let first = true;
    const bytes = await readBody(response as unknown as Response, () => {
      if (first) events.push('client got first bytes');
      first = false;
    });
    const lastCall = events.filter((event) => event.endsWith('finished')).at(-1) as string;
    expect(events.filter((event) => event.endsWith('started')).length).to.be.greaterThan(3);
    expect(events.indexOf('client got first bytes')).to.be.lessThan(events.indexOf(lastCall));
    const decoded = await decodeAudio(new Uint8Array(bytes), 'mp3');
    expect(decoded.samples.length / decoded.sampleRate).to.be.greaterThan(30);
  });

  it('streams SSE events whose audio deltas join into the whole file', async () => {
    const response = await client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'Hello over server-sent events. Two sentences.', stream_format: 'sse', response_format: 'mp3' });
    expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
    const text = (await readBody(response as unknown as Response)).toString();
    const parsed = text.split('\n\n').filter(Boolean).map((block) => JSON.parse(block.replace(/^data: /, '')) as { type: string; audio?: string; usage?: { input_tokens: number } });
    expect(parsed.at(-1)?.type).to.equal('speech.audio.done');
    expect(parsed.at(-1)?.usage?.input_tokens).to.equal(45);
    const audio = Buffer.concat(parsed.filter((event) => event.type === 'speech.audio.delta').map((event) => Buffer.from(event.audio as string, 'base64')));
    const decoded = await decodeAudio(new Uint8Array(audio), 'mp3');
    expect(decoded.samples.length / decoded.sampleRate).to.be.greaterThan(1);
  });

  it('serves 8 concurrent requests', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_value, index) => client.audio.speech.create({ model: 'tts-1', voice: 'echo', input: `Concurrent request number ${index + 1}.`, response_format: 'wav' })),
    );
    for (const answer of answers) {
      const decoded = await decodeAudio(new Uint8Array(await answer.arrayBuffer()), 'wav');
      expect(decoded.samples.length / decoded.sampleRate).to.be.greaterThan(0.5);
    }
  });

  it('stops the work when the client disconnects mid-stream', async () => {
    events.length = 0;
    const controller = new AbortController();
    const response = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: `${SENTENCES} ${SENTENCES}`, response_format: 'mp3' }, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await reader.cancel().catch(() => undefined);
    // Let the gateway see the close and cancel what runs.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const startedAtStop = events.filter((event) => event.endsWith('started')).length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(events.filter((event) => event.endsWith('started')).length).to.equal(startedAtStop);
    expect(startedAtStop).to.be.lessThan(20);
    // The workers are free again: the next request is served.
    const next = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Still serving.', response_format: 'wav' });
    expect((await next.arrayBuffer()).byteLength).to.be.greaterThan(1000);
  });
});
