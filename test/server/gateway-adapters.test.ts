import { expect } from 'chai';
import type { AudioProcessor, AudioStore, AudioStreamSession, AudioStreamSpec } from '../../core';
import { audioEngine, cacheStorage, lazyAudioEngine } from '../../server/gateway-adapters';

/** A processor that keeps what each stream was opened with. */
function recordingProcessor() {
  const opened: unknown[][] = [];
  const processor = {
    decodableFormats: ['mp3'],
    encodableFormats: ['mp3'],
    openStream: async (...args: unknown[]) => {
      opened.push(args);
      return {} as AudioStreamSession;
    },
  } as unknown as AudioProcessor;
  return { processor, opened };
}

describe('server/gateway-adapters', () => {
  const spec = { output: 'mp3' } as AudioStreamSpec;

  it("hands a stream session its caller's signal and start deadline, so a queued session is refused in time or dropped with its client", async () => {
    const control = { signal: new AbortController().signal, deadline: Date.now() + 1000 };
    const eager = recordingProcessor();
    await audioEngine(eager.processor).openStream(spec, control);
    const lazy = recordingProcessor();
    // An ffmpeg that is not there: the background probe finds nothing to run.
    await lazyAudioEngine(() => lazy.processor, { ffmpegPath: '/nonexistent/ffmpeg' }).openStream(spec, control);
    expect(eager.opened).to.deep.equal([[spec, control]]);
    expect(lazy.opened).to.deep.equal([[spec, control]]);
  });

  it("hands a result-cache hit's share the hit's signal, so a hit given up leaves no name counted against its owner", async () => {
    const asked: unknown[] = [];
    const store = { share: async (fileName: string, options: unknown) => (asked.push(options), { fileName: `${fileName}-shared`, size: 1 }) } as unknown as AudioStore;
    const signal = new AbortController().signal;
    await cacheStorage(store, { recordOwners: true }).share!('file.mp3', 'account', signal);
    await cacheStorage(store, { recordOwners: false }).share!('file.mp3', 'account', signal);
    expect(asked).to.deep.equal([{ signal, owner: 'account' }, { signal }]);
  });
});
