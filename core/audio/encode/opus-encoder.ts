import OpusScript from 'opusscript';
import { resample } from '../dsp/resample';
import { floatToInt16, type PcmAudio } from '../pcm';
import { OggPageWriter, PAGE_FLAG_BEGIN, PAGE_FLAG_END } from './ogg-page-writer';

type OpusRate = 8000 | 12000 | 16000 | 24000 | 48000;
const OPUS_RATES: readonly OpusRate[] = [8000, 12000, 16000, 24000, 48000];
/** Granule positions in Ogg Opus always count 48 kHz samples. */
const GRANULE_RATE = 48_000;
/** libopus's encoder delay at 48 kHz (2.5 ms look-ahead + 4 ms), which decoders skip. */
const PRE_SKIP = 312;
const FRAME_SECONDS = 0.02;
const BITRATE = 32_000;
/** Packets per Ogg page: about one second of audio, like common muxers. */
const PACKETS_PER_PAGE = 50;
/** A fixed serial keeps output deterministic (one logical stream per file, so no clash). */
const STREAM_SERIAL = 0x74747367;

function opusHead(inputRate: number): Uint8Array {
  const head = new Uint8Array(19);
  const view = new DataView(head.buffer);
  head.set(new TextEncoder().encode('OpusHead'));
  head[8] = 1; // version
  head[9] = 1; // channels
  view.setUint16(10, PRE_SKIP, true);
  view.setUint32(12, inputRate, true);
  view.setInt16(16, 0, true); // output gain
  head[18] = 0; // channel mapping family: mono/stereo
  return head;
}

function opusTags(): Uint8Array {
  const vendor = new TextEncoder().encode('tts-gateway');
  const tags = new Uint8Array(8 + 4 + vendor.length + 4);
  const view = new DataView(tags.buffer);
  tags.set(new TextEncoder().encode('OpusTags'));
  view.setUint32(8, vendor.length, true);
  tags.set(vendor, 12);
  view.setUint32(12 + vendor.length, 0, true); // no user comments
  return tags;
}

/** Encodes mono Opus (libopus via opusscript, 32 kb/s, 20 ms frames) in an Ogg container. */
export async function encodeOggOpus(audio: PcmAudio): Promise<Uint8Array> {
  const rate = OPUS_RATES.find((candidate) => candidate >= audio.sampleRate) ?? 48_000;
  const input = await resample(audio, rate);
  const frameSize = Math.round(rate * FRAME_SECONDS);
  const granulePerFrame = BigInt(Math.round(GRANULE_RATE * FRAME_SECONDS));
  const totalGranule = BigInt(PRE_SKIP) + BigInt(Math.round((input.samples.length * GRANULE_RATE) / rate));
  const writer = new OggPageWriter(STREAM_SERIAL);
  writer.writePage([opusHead(audio.sampleRate)], 0n, PAGE_FLAG_BEGIN);
  writer.writePage([opusTags()], 0n);
  const encoder = new OpusScript(rate, 1, OpusScript.Application.AUDIO);
  try {
    encoder.setBitrate(BITRATE);
    // Enough frames to cover the input plus the encoder delay, so the tail is not lost.
    const frames = Math.ceil((input.samples.length + (PRE_SKIP * rate) / GRANULE_RATE) / frameSize);
    const samples = new Float32Array(frames * frameSize);
    samples.set(input.samples);
    const pcm = floatToInt16(samples);
    let page: Uint8Array[] = [];
    let granule = 0n;
    for (let frame = 0; frame < frames; frame += 1) {
      const frameSamples = pcm.subarray(frame * frameSize, (frame + 1) * frameSize);
      const frameBytes = Buffer.from(frameSamples.buffer, frameSamples.byteOffset, frameSamples.byteLength);
      page.push(Uint8Array.from(encoder.encode(frameBytes, frameSize)));
      granule += granulePerFrame;
      const last = frame === frames - 1;
      if (page.length === PACKETS_PER_PAGE || last) {
        // The last page's granule marks the true end, so decoders trim the padding.
        writer.writePage(page, last ? totalGranule : granule, last ? PAGE_FLAG_END : 0);
        page = [];
      }
    }
  } finally {
    encoder.delete();
  }
  return writer.toBytes();
}
