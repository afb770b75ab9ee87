import { expect } from 'chai';
import {
  definePlugin,
  GatewayError,
  upstreamAudio,
  upstreamFetch,
  upstreamStream,
  type ModelInfo,
  type ProviderAudio,
  type ProviderSynthesisRequest,
  type TtsProvider,
  type UpstreamRequest,
} from '../../../core';
import { registerConformance, runConformance, type ConformanceResult, type ConformanceRunner } from '../../../core/testing';

/** A WAV file of silence: enough for the kit's format sniffing. */
function silentWav(samples = 800): Uint8Array {
  const bytes = Buffer.alloc(44 + samples * 2);
  bytes.write('RIFF', 0, 'latin1');
  bytes.writeUInt32LE(36 + samples * 2, 4);
  bytes.write('WAVEfmt ', 8, 'latin1');
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20);
  bytes.writeUInt16LE(1, 22);
  bytes.writeUInt32LE(8000, 24);
  bytes.writeUInt32LE(16000, 28);
  bytes.writeUInt16LE(2, 32);
  bytes.writeUInt16LE(16, 34);
  bytes.write('data', 36, 'latin1');
  bytes.writeUInt32LE(samples * 2, 40);
  return new Uint8Array(bytes);
}

const MODEL: ModelInfo = { name: 'local-1', capabilities: { formats: ['wav', 'pcm'], speed: { min: 0.5, max: 2 }, maxInputChars: 500 } };

/** An embedded engine (no HTTP); `mislabel` makes it return WAV bytes labelled pcm for pcm. */
function localPlugin(mislabel = false) {
  return definePlugin<Record<string, never>>({
    id: 'local',
    optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
    create: (): TtsProvider => ({
      models: async () => [MODEL],
      voices: async () => [{ voiceId: 'one', voiceName: 'One', language: 'en-US', gender: 'Unknown', description: 'a local voice' }],
      synthesize: async (request: ProviderSynthesisRequest): Promise<ProviderAudio> => {
        if (request.signal.aborted) throw new GatewayError('TTS_ERR_CANCELLED', 'cancelled');
        if (request.format === 'pcm' && !mislabel) return { audio: new Uint8Array(1600), format: 'pcm', sampleRate: 8000, warnings: [] };
        return { audio: silentWav(), format: request.format, warnings: [] };
      },
    }),
  });
}

const byGroup = (results: readonly ConformanceResult[]) => results.reduce<Record<string, string[]>>((groups, result) => ({ ...groups, [result.group]: [...(groups[result.group] ?? []), result.status] }), {});

describe('core/testing: the conformance kit, with no test framework', () => {
  it('runs every group; checks that do not apply (no HTTP, no streaming) are skipped with a reason', async () => {
    const results = await runConformance({ plugin: localPlugin(), options: {} });
    expect(byGroup(results)).to.deep.equal({
      catalog: ['passed', 'passed'],
      formats: ['passed', 'passed'],
      errors: ['skipped', 'skipped', 'skipped', 'skipped'],
      cancellation: ['passed', 'skipped'],
      streaming: ['skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped'],
    });
    expect(results.find((result) => result.group === 'streaming')?.reason).to.include('no synthesizeStream');
  });

  it('leaves out the groups switched off', async () => {
    const results = await runConformance({ plugin: localPlugin(), options: {}, groups: { errors: false, streaming: false, formats: false } });
    expect(Object.keys(byGroup(results))).to.deep.equal(['catalog', 'cancellation']);
  });

  it('reports a broken promise as a failed check that says what is wrong', async () => {
    const results = await runConformance({ plugin: localPlugin(true), options: {}, groups: { errors: false, streaming: false } });
    const formats = results.find((result) => result.check.startsWith('produces every declared format'));
    expect(formats).to.include({ status: 'failed' });
    expect(formats?.reason).to.include('local-1: pcm needs its sampleRate');
  });

  it('fails every check with the reason when the test options fail the plugin\'s own schema', async () => {
    const results = await runConformance({ plugin: localPlugin(), options: { unknown: true } as unknown as Record<string, never>, groups: { errors: false, streaming: false } });
    expect(results.every((result) => result.status === 'failed' && result.reason?.includes("fail the plugin's own schema"))).to.equal(true);
  });
});

describe('core/testing: the conformance kit in any runner', () => {
  it('declares one describe per group and one test per check through the runner it is given', async () => {
    const names: string[] = [];
    const tests: { name: string; fn: (context: unknown) => Promise<void> }[] = [];
    const hooks: { before: (() => Promise<void>)[]; after: (() => Promise<void>)[] } = { before: [], after: [] };
    const skipped: string[] = [];
    const runner: ConformanceRunner = {
      describe: (name, body) => {
        names.push(name);
        body();
      },
      it: (name, fn) => tests.push({ name, fn }),
      before: (fn) => hooks.before.push(fn),
      after: (fn) => hooks.after.push(fn),
      skip: (context, reason) => skipped.push(`${String(context)}: ${reason}`),
    };
    registerConformance(runner, { plugin: localPlugin(), options: {}, groups: { errors: false } });
    expect(names).to.deep.equal(['conformance: plugin local', 'catalog', 'formats', 'cancellation', 'streaming']);
    for (const hook of hooks.before) await hook();
    for (const test of tests) await test.fn(test.name);
    for (const hook of hooks.after) await hook();
    expect(tests).to.have.length(12);
    expect(skipped).to.have.length(7);
    expect(skipped[0]).to.include('cancels an in-flight call').and.include('context.fetch');
  });
});

/** How the HTTP test plugin streams: properly, or with one of the faults the streaming checks catch. */
type StreamingBehaviour = 'streams' | 'buffers' | 'ends-when-cut' | 'ignores-cancellation';

const HTTP_MODEL: ModelInfo = { name: 'http-1', capabilities: { formats: ['wav'], maxInputChars: 500 } };

/** A provider over HTTP (`context.fetch`) that streams its answer, well or badly. */
function httpPlugin(behaviour: StreamingBehaviour) {
  return definePlugin<Record<string, never>>({
    id: 'http-local',
    optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
    create: (_options, context): TtsProvider => {
      const call = (signal?: AbortSignal): UpstreamRequest => ({ provider: 'Local', fetch: context.fetch, url: 'http://tts.invalid/speak', method: 'POST', timeoutMs: 5000, signal });
      return {
        models: async () => [HTTP_MODEL],
        voices: async () => [{ voiceId: 'one', voiceName: 'One', language: 'en-US', gender: 'Unknown', description: 'a voice over HTTP' }],
        synthesize: async (request) => ({ audio: upstreamAudio('Local', await upstreamFetch(call(request.signal))), format: 'wav', warnings: [] }),
        synthesizeStream: async (request) => {
          if (behaviour === 'buffers') {
            const audio = upstreamAudio('Local', await upstreamFetch(call(request.signal)));
            return { chunks: (async function* () { yield audio; })(), format: 'wav', warnings: [] };
          }
          const response = await upstreamStream(call(behaviour === 'ignores-cancellation' ? undefined : request.signal));
          const chunks = behaviour === 'ends-when-cut' ? endQuietly(response.chunks) : response.chunks;
          return { chunks, format: 'wav', warnings: [] };
        },
      };
    },
  });
}

/** The fault of a stream that swallows a broken connection and ends as if complete. */
async function* endQuietly(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks;
  } catch {
    return;
  }
}

/** The provider's answer: a WAV file; an aborted call fails, as with the real fetch. */
const wavFetch = (async (_input: unknown, init?: RequestInit) => {
  init?.signal?.throwIfAborted();
  return new Response(silentWav(), { headers: { 'content-type': 'audio/wav' } });
}) as typeof fetch;
const streamingResults = async (behaviour: StreamingBehaviour) =>
  (await runConformance({ plugin: httpPlugin(behaviour), options: {}, fetch: wavFetch, groups: { catalog: false, formats: false, errors: false, cancellation: false } })).filter(
    (result) => result.group === 'streaming',
  );
const outcome = (results: readonly ConformanceResult[], start: string) => results.find((result) => result.check.startsWith(start));

describe('core/testing: the conformance kit\'s streaming checks', () => {
  it('passes a plugin that streams its provider\'s answer as it arrives', async () => {
    const results = await streamingResults('streams');
    expect(results.map((result) => [result.check, result.status, result.reason])).to.deep.equal(
      results.map((result) => [result.check, 'passed', undefined]),
    );
    expect(results).to.have.length(6);
  });

  it('fails a plugin that waits for the whole answer, at once and saying so', async () => {
    const results = await streamingResults('buffers');
    const firstBytes = outcome(results, 'hands the first bytes on');
    expect(firstBytes).to.include({ status: 'failed' });
    expect(firstBytes?.reason).to.include('waited for the rest of the provider\'s answer');
  });

  it('fails a plugin whose stream ends cleanly when the connection breaks off', async () => {
    const brokenOff = outcome(await streamingResults('ends-when-cut'), 'throws a coded error, not a clean end');
    expect(brokenOff).to.include({ status: 'failed' });
    expect(brokenOff?.reason).to.include('ended as if the audio were complete');
  });

  it('fails a plugin that reads on after its call was cancelled mid-stream', async () => {
    const cancelled = outcome(await streamingResults('ignores-cancellation'), 'stops reading the answer');
    expect(cancelled).to.include({ status: 'failed' });
    expect(cancelled?.reason).to.include('after the signal aborted');
  });
});
