import { expect } from 'chai';
import {
  definePlugin,
  GatewayError,
  type ModelInfo,
  type ProviderAudio,
  type ProviderSynthesisRequest,
  type TtsProvider,
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
      streaming: ['skipped', 'skipped', 'skipped'],
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
    expect(tests).to.have.length(9);
    expect(skipped).to.have.length(4);
    expect(skipped[0]).to.include('cancels an in-flight call').and.include('context.fetch');
  });
});
