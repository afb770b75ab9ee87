import { expect } from 'chai';
import { decodeAudio } from '../../../core/audio/decode/decode-audio';
import { encodableFormats, encodeAudio } from '../../../core/audio/encode/encode-audio';
import { sniffAudioFormat } from '../../../core/audio/sniff-audio-format';
import { countMp3Frames, decodeForTest, durationSeconds, medianF0, parseWavHeader, rms } from '../../support/audio-analysis';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { buildWav, speechMp3Bytes, speechPcm, speechWavBytes } from './speech-fixture';

/** Points the engine at an ffmpeg that does not exist: aac must then be unavailable. */
const WITHOUT_FFMPEG = { ffmpegPath: '/nonexistent/bin/ffmpeg' };

describe('audio decoders', () => {
  const speech = speechPcm();

  it('reads the fixture WAV header', () => {
    expect(parseWavHeader(speechWavBytes())).to.deep.equal({ sampleRate: 22050, channels: 1, bitsPerSample: 16, dataBytes: speech.samples.length * 2 });
    expect(() => parseWavHeader(new TextEncoder().encode('RIFF....WAVEjunk'))).to.throw();
  });

  for (const variant of [
    { bits: 24 as const, float: false },
    { bits: 32 as const, float: false },
    { bits: 32 as const, float: true },
  ]) {
    it(`decodes ${variant.bits}-bit ${variant.float ? 'float' : 'integer'} stereo WAV to the mono average`, async () => {
      const bytes = buildWav(speech, { channels: 2, bits: variant.bits, float: variant.float, gains: [1, 0.5] });
      const decoded = await decodeAudio(bytes, 'wav');
      expect(decoded.sampleRate).to.equal(22050);
      expect(decoded.samples.length).to.equal(speech.samples.length);
      let worst = 0;
      for (let index = 0; index < speech.samples.length; index += 1) worst = Math.max(worst, Math.abs(decoded.samples[index] - speech.samples[index] * 0.75));
      expect(worst).to.be.below(1e-4);
    });
  }

  it('decodes raw s16le pcm at the rate it is given, and refuses pcm without one', async () => {
    const bytes = speechWavBytes().subarray(44);
    const decoded = await decodeAudio(bytes, 'pcm', 22050);
    expect(decoded.samples).to.deep.equal(speech.samples);
    await expectGatewayError(decodeAudio(bytes, 'pcm'), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('decodes the MP3 fixture to speech of the same length and pitch', async () => {
    const decoded = await decodeAudio(speechMp3Bytes(), 'mp3');
    expect(decoded.sampleRate).to.equal(22050);
    expect(durationSeconds(decoded)).to.be.closeTo(durationSeconds(speech), 0.1);
    expect(medianF0(decoded)).to.be.closeTo(medianF0(speech), medianF0(speech) * 0.05);
    expect(countMp3Frames(speechMp3Bytes())).to.be.within(155, 165);
  });

  for (const format of ['wav', 'mp3', 'opus', 'flac', 'aac'] as const) {
    it(`rejects junk declared as ${format} with TTS_ERR_UPSTREAM_BAD_RESPONSE`, async () => {
      const junk = new TextEncoder().encode('<html>502 Bad Gateway</html>'.repeat(40));
      await expectGatewayError(decodeAudio(junk, format), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    });
  }

  it('rejects empty audio', async () => {
    await expectGatewayError(decodeAudio(new Uint8Array(0), 'wav'), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });
});

describe('audio encoders', () => {
  const speech = speechPcm();

  it('lists exactly the formats that work: aac only with ffmpeg', () => {
    expect([...encodableFormats()].sort()).to.deep.equal(['aac', 'flac', 'mp3', 'opus', 'pcm', 'wav']);
    expect([...encodableFormats(WITHOUT_FFMPEG)].sort()).to.deep.equal(['flac', 'mp3', 'opus', 'pcm', 'wav']);
  });

  for (const format of encodableFormats()) {
    it(`round-trips ${format}: sniffed as ${format}, same duration, loudness and pitch`, async () => {
      const encoded = await encodeAudio(speech, format);
      if (format !== 'pcm') expect(sniffAudioFormat(encoded.audio)).to.equal(format);
      const decoded = await decodeForTest(encoded.audio, format, encoded.sampleRate);
      expect(decoded.sampleRate).to.equal(encoded.sampleRate);
      expect(durationSeconds(decoded)).to.be.closeTo(durationSeconds(speech), 0.1);
      expect(rms(decoded)).to.be.closeTo(rms(speech), rms(speech) * 0.1);
      expect(medianF0(decoded)).to.be.closeTo(medianF0(speech), medianF0(speech) * 0.05);
    });
  }

  it('writes a 16-bit mono WAV header and raw pcm without one', async () => {
    const wav = await encodeAudio(speech, 'wav');
    expect(parseWavHeader(wav.audio)).to.deep.equal({ sampleRate: 22050, channels: 1, bitsPerSample: 16, dataBytes: speech.samples.length * 2 });
    const pcm = await encodeAudio(speech, 'pcm');
    expect(pcm.audio.length).to.equal(speech.samples.length * 2);
    expect(pcm.sampleRate).to.equal(22050);
  });

  it('makes MP3 frames covering the duration at an MP3 sample rate', async () => {
    const encoded = await encodeAudio({ samples: speech.samples, sampleRate: 22050 }, 'mp3');
    // MPEG-2 layer III at 22.05 kHz: 576 samples per frame.
    expect(countMp3Frames(encoded.audio)).to.be.within(Math.floor(speech.samples.length / 576), Math.ceil(speech.samples.length / 576) + 4);
  });

  it('refuses aac with TTS_ERR_UNSUPPORTED_FORMAT when ffmpeg cannot run', async () => {
    await expectGatewayError(encodeAudio(speech, 'aac', WITHOUT_FFMPEG), 'TTS_ERR_UNSUPPORTED_FORMAT');
  });
});

describe('audio decoders on empty content', () => {
  it('rejects a WAV whose data chunk is empty', async () => {
    const header = speechWavBytes().slice(0, 44);
    new DataView(header.buffer).setUint32(40, 0, true);
    await expectGatewayError(decodeAudio(header, 'wav'), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });
});
