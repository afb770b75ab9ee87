import { expect } from 'chai';
import { checkedProviderAudio, createPcm, encodeAudio, type ProviderAudio } from '../../../core';
import { checkProviderAudio } from '../../../core/synthesis/checked-audio';
import { conformanceAudio } from '../../plugins/openai-compatible/harness';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { QUIET_LOGGER } from '../../support/quiet-logger';

const audioOf = (bytes: Uint8Array, format: ProviderAudio['format'], sampleRate?: number): ProviderAudio => ({ audio: bytes, format, sampleRate, warnings: [] });

/** A 16-bit mono WAV of a short tone, as a provider would send it. */
async function toneWav(sampleRate: number, seconds = 0.05): Promise<Uint8Array> {
  const samples = new Float32Array(Math.round(sampleRate * seconds)).map((_, index) => 0.3 * Math.sin(index / 5));
  return (await encodeAudio(createPcm(samples, sampleRate), 'wav')).audio;
}

/** A WAV of two channels, which cannot be taken as mono pcm. */
function stereoWav(sampleRate: number, frames: number): Uint8Array {
  const bytes = new Uint8Array(44 + frames * 4);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => [...value].forEach((character, index) => view.setUint8(offset + index, character.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + frames * 4, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 2, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 4, true);
  view.setUint16(32, 4, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, frames * 4, true);
  return bytes;
}

describe('core/synthesis checkedProviderAudio: the bytes, not the label', () => {
  const recorded = conformanceAudio();

  it('strips a WAV header sent as pcm and takes its sample rate', async () => {
    const wav = await toneWav(16_000);
    const checked = checkedProviderAudio('kokoro', audioOf(wav, 'pcm', 24_000));
    expect(checked.format).to.equal('pcm');
    expect(checked.sampleRate).to.equal(16_000);
    expect(checked.audio.byteLength).to.equal(wav.byteLength - 44);
    expect(Buffer.from(checked.audio).equals(Buffer.from(wav.subarray(44)))).to.equal(true);
    expect(checked.warnings.join(' ')).to.include('WAV header').and.include('16000');
    expect(checked.receivedAs).to.equal('wav');
  });

  it('takes a WAV sent as pcm that is not 16-bit mono as the WAV it is', () => {
    const checked = checkedProviderAudio('kokoro', audioOf(stereoWav(22_050, 100), 'pcm', 24_000));
    expect(checked.format).to.equal('wav');
    expect(checked.warnings[0]).to.equal('audio labelled pcm is wav: decoded as wav');
  });

  it('takes a container under another label as what it is, and says so', () => {
    const checked = checkedProviderAudio('kokoro', audioOf(recorded.wav, 'mp3'));
    expect(checked.format).to.equal('wav');
    expect(checked.warnings).to.deep.equal(['audio labelled mp3 is wav: decoded as wav']);
    expect(checked.receivedAs).to.equal('wav');
    expect(checkedProviderAudio('kokoro', audioOf(recorded.flac, 'pcm', 24_000)).format).to.equal('flac');
    expect(checkedProviderAudio('kokoro', audioOf(recorded.opus, 'pcm', 24_000)).format).to.equal('opus');
  });

  it('takes bare MP3 frames (no ID3 tag) sent as pcm as the MP3 they are', () => {
    const tagged = recorded.mp3;
    const tagLength = 10 + ((tagged[6] << 21) | (tagged[7] << 14) | (tagged[8] << 7) | tagged[9]);
    const checked = checkedProviderAudio('kokoro', audioOf(tagged.subarray(tagLength), 'pcm', 24_000));
    expect(checked.format).to.equal('mp3');
    expect(checked.receivedAs).to.equal('mp3');
  });

  it('keeps pcm whose first bytes look like one MP3 frame header by chance as pcm', () => {
    // A valid MPEG-2 layer III header, then samples where the next frame header would be.
    const samples = new Uint8Array(2000);
    samples.set([0xff, 0xf3, 0x44, 0xc4]);
    const audio = audioOf(samples, 'pcm', 24_000);
    expect(checkedProviderAudio('kokoro', audio)).to.equal(audio);
  });

  it('keeps audio that is what it says unchanged', () => {
    for (const format of ['mp3', 'opus', 'aac', 'flac', 'wav'] as const) {
      const audio = audioOf(recorded[format], format);
      expect(checkedProviderAudio('kokoro', audio)).to.equal(audio);
    }
    const pcm = audioOf(recorded.pcm, 'pcm', 24_000);
    expect(checkedProviderAudio('kokoro', pcm)).to.equal(pcm);
  });

  for (const [name, audio] of [
    ['empty audio', audioOf(new Uint8Array(0), 'mp3')],
    ['bytes of no known format labelled mp3', audioOf(new Uint8Array([1, 2, 3, 4, 5, 6]), 'mp3')],
    ['a JSON error document labelled pcm', audioOf(new TextEncoder().encode('{"error":{"message":"model overloaded"}}'), 'pcm', 24_000)],
    ['pcm with an odd number of bytes', audioOf(new Uint8Array(101), 'pcm', 24_000)],
    ['pcm without a sample rate', audioOf(new Uint8Array(100), 'pcm')],
  ] as const) {
    it(`answers ${name} as a bad upstream answer (502, retryable)`, async () => {
      const error = await expectGatewayError(Promise.resolve().then(() => checkedProviderAudio('kokoro', audio)), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
      expect(error.status).to.equal(502);
      expect(error.retryable).to.equal(true);
    });
  }

  it('keeps a provider\'s word that it gave its buffer away, and says nothing of buffers it kept', async () => {
    const wav = await toneWav(22050);
    expect(checkProviderAudio('espeak', { ...audioOf(wav, 'wav'), transferable: true }, QUIET_LOGGER, 'test-request').transferable).to.equal(true);
    expect(checkProviderAudio('espeak', audioOf(wav, 'wav'), QUIET_LOGGER, 'test-request')).to.not.have.property('transferable');
  });
});
