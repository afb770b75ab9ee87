import { expect } from 'chai';
import { AudioProcessor } from '../../../core/audio/audio-processor';
import { encodeFlac } from '../../../core/audio/encode/flac-encoder';
import { collect, fixture, request } from './streaming-fixture';

/** One second of a 22.05 kHz tone. */
const TONE = { samples: Float32Array.from({ length: 22_050 }, (_value, index) => 0.3 * Math.sin((2 * Math.PI * 220 * index) / 22_050)), sampleRate: 22_050 };

describe('core/synthesis streaming: the rate of streamed pcm', () => {
  let engine: AudioProcessor;
  before(() => {
    engine = new AudioProcessor({ workers: 1 });
  });
  after(() => engine.close());

  it('reports the output rate when the first answer gives no samples until it ends (FLAC), not 0', async () => {
    // FLAC is decoded whole at the end of its answer: the session's first piece is empty and knows no rate yet.
    const flac = await encodeFlac(TONE);
    const { service } = fixture({ engine, capabilities: { formats: ['flac'] }, label: 'flac', synthesize: async () => flac });
    const stream = await service.stream(request({ text: 'A short text.', format: 'pcm' }), { requestId: 'rate-flac' });
    await collect(stream.chunks);
    // tts-stream answers `audio/pcm;rate=<this>`; the result cache stores the file under it.
    expect(stream.sampleRate).to.equal(22_050);
    expect(stream.progress.sampleRate).to.equal(22_050);
  });
});
