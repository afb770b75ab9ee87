import { createMp3Encoder } from 'wasm-media-encoders';
import { resample } from '../dsp/resample';
import type { PcmAudio } from '../pcm';
import type { EncodedAudio } from './encoded-audio';

type Mp3Rate = 8000 | 11025 | 12000 | 16000 | 22050 | 24000 | 32000 | 44100 | 48000;
const MP3_RATES: readonly Mp3Rate[] = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];

/** Constant bit rate for mono speech: 64 kb/s at MPEG-1 rates, 48 kb/s at the lower MPEG-2 rates. */
function bitrateFor(rate: Mp3Rate): 48 | 64 {
  return rate >= 32000 ? 64 : 48;
}

/** Encodes mono CBR MP3 with LAME (wasm-media-encoders), at the nearest MP3 rate not below the input's. */
export async function encodeMp3(audio: PcmAudio): Promise<EncodedAudio> {
  const rate = MP3_RATES.find((candidate) => candidate >= audio.sampleRate) ?? 48000;
  const input = await resample(audio, rate);
  const encoder = await createMp3Encoder();
  encoder.configure({ channels: 1, sampleRate: rate, bitrate: bitrateFor(rate) });
  // The encoder returns views into its own memory that the next call overwrites: copy each.
  const body = encoder.encode([input.samples]).slice();
  const tail = encoder.finalize().slice();
  const output = new Uint8Array(body.length + tail.length);
  output.set(body);
  output.set(tail, body.length);
  return { audio: output, sampleRate: rate };
}
