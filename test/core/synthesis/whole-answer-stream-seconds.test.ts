import { expect } from 'chai';
import { audioDurationSeconds, encodeAudio, type AudioFormat } from '../../../core';
import { speechMp3Bytes, speechPcm } from '../audio/speech-fixture';
import { fixture, request } from './streaming-fixture';

/**
 * A stream from a provider that answers whole (no stream of its own), whose one answer is
 * already the format asked: it goes to the client as it came. Its seconds were never counted
 * (0 s in the usage report, maxAudioDuration not held), while the same answer streamed by the
 * provider, or as a file, counts its length.
 */
describe('core/synthesis streaming: one whole answer passed on as it came counts its seconds', () => {
  for (const format of ['mp3', 'flac'] as AudioFormat[]) {
    it(`counts a ${format} answer passed on whole`, async () => {
      const audio = format === 'mp3' ? speechMp3Bytes() : (await encodeAudio(speechPcm(), format)).audio;
      const { service } = fixture({ capabilities: { formats: [format] }, label: format, synthesize: async () => audio });
      const stream = await service.stream(request({ text: 'Hello there.', format }), { requestId: 'whole' });
      expect(stream.applied.format).to.equal('native');
      for await (const piece of stream.chunks) void piece;
      expect(stream.progress.durationSeconds).to.be.closeTo(audioDurationSeconds(audio, format)!, 1e-9);
    });
  }
});
