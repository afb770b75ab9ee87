import OpusScript from 'opusscript';
import { resample } from '../dsp/resample';
import { floatToInt16, type PcmAudio } from '../pcm';
import { encoderInputRate } from './encoder-rates';
import { OggPageWriter, PAGE_FLAG_BEGIN, PAGE_FLAG_END } from './ogg-page-writer';
import { OPUS_PRE_SKIP, opusHead, opusTags } from './opus-headers';
import { concatBytes } from '../concat';
import { encodeWhole, type StreamEncoder } from './stream-encoder';

type OpusRate = 8000 | 12000 | 16000 | 24000 | 48000;
/** Granule positions in Ogg Opus always count 48 kHz samples. */
const GRANULE_RATE = 48_000;
const FRAME_SECONDS = 0.02;
const BITRATE = 32_000;
/** Packets per Ogg page at most: about one second of audio, like common muxers. */
const PACKETS_PER_PAGE = 50;
/** Fewest packets worth a page of their own at the end of a write: 100 ms, so pages stay cheap. */
const MIN_PACKETS_TO_FLUSH = 5;
/** A fixed serial keeps output deterministic (one logical stream per file, so no clash). */
const STREAM_SERIAL = 0x74747367;

/**
 * Mono Opus (libopus via opusscript, 32 kb/s, 20 ms frames) in Ogg, fed piece by piece:
 * the header pages come with the first output, then a page whenever packets fill one (or
 * 100 ms are waiting at the end of a write); the last page has the END flag and the true
 * granule, so decoders trim the padding. A partial frame is carried to the next write.
 */
export class OggOpusStreamEncoder implements StreamEncoder {
  readonly outputRate = GRANULE_RATE;
  private readonly frameSize: number;
  private readonly writer = new OggPageWriter(STREAM_SERIAL);
  private encoder?: OpusScript;
  private carry = new Float32Array(0);
  private packets: Uint8Array[] = [];
  private framesPaged = 0;
  private samplesIn = 0;
  private headersSent = false;

  /** `rate` must be an Opus rate; `sourceRate` is recorded in the header as the original rate. */
  constructor(
    private readonly rate: number,
    private readonly sourceRate = rate,
  ) {
    if (encoderInputRate('opus', rate) !== rate) throw new RangeError(`${rate} Hz is not an Opus sample rate`);
    this.frameSize = Math.round(rate * FRAME_SECONDS);
    this.encoder = new OpusScript(rate as OpusRate, 1, OpusScript.Application.AUDIO);
    this.encoder.setBitrate(BITRATE);
  }

  async write(samples: Float32Array): Promise<Uint8Array> {
    this.samplesIn += samples.length;
    const pages = this.headers();
    const pending = new Float32Array(this.carry.length + samples.length);
    pending.set(this.carry);
    pending.set(samples, this.carry.length);
    const whole = Math.floor(pending.length / this.frameSize) * this.frameSize;
    this.encodeFrames(pending.subarray(0, whole));
    this.carry = pending.slice(whole);
    while (this.packets.length >= PACKETS_PER_PAGE) pages.push(this.page(PACKETS_PER_PAGE, false));
    if (this.packets.length >= MIN_PACKETS_TO_FLUSH) pages.push(this.page(this.packets.length, false));
    return concatBytes(pages);
  }

  async end(): Promise<Uint8Array> {
    const pages = this.headers();
    // Enough frames to cover the input plus the encoder delay, so the tail is not lost.
    const delay = (OPUS_PRE_SKIP * this.rate) / GRANULE_RATE;
    const frames = Math.ceil((this.carry.length + delay) / this.frameSize);
    const last = new Float32Array(frames * this.frameSize);
    last.set(this.carry);
    this.carry = new Float32Array(0);
    this.encodeFrames(last);
    // The last page keeps at least one packet (there is one: the delay always adds a frame).
    while (this.packets.length > PACKETS_PER_PAGE) pages.push(this.page(PACKETS_PER_PAGE, false));
    pages.push(this.page(this.packets.length, true));
    this.dispose();
    return concatBytes(pages);
  }

  dispose(): void {
    this.encoder?.delete();
    this.encoder = undefined;
  }

  private headers(): Uint8Array[] {
    if (this.headersSent) return [];
    this.headersSent = true;
    return [this.writer.page([opusHead(this.sourceRate)], 0n, PAGE_FLAG_BEGIN), this.writer.page([opusTags()], 0n)];
  }

  /** Encodes whole frames into packets waiting for a page. */
  private encodeFrames(samples: Float32Array): void {
    if (!this.encoder) throw new Error('Opus encoder already ended');
    const pcm = floatToInt16(samples);
    for (let start = 0; start < pcm.length; start += this.frameSize) {
      const frame = pcm.subarray(start, start + this.frameSize);
      this.packets.push(Uint8Array.from(this.encoder.encode(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength), this.frameSize)));
    }
  }

  /** A page of the first `count` waiting packets; its granule is the position after them. */
  private page(count: number, last: boolean): Uint8Array {
    const packets = this.packets.splice(0, count);
    this.framesPaged += packets.length;
    const granule = last
      ? // The true end, so decoders trim the padding after it.
        BigInt(OPUS_PRE_SKIP) + BigInt(Math.round((this.samplesIn * GRANULE_RATE) / this.rate))
      : BigInt(this.framesPaged) * BigInt(Math.round(GRANULE_RATE * FRAME_SECONDS));
    return this.writer.page(packets, granule, last ? PAGE_FLAG_END : 0);
  }
}

/** Encodes a whole signal as Ogg Opus, at the nearest Opus rate not below its own. */
export async function encodeOggOpus(audio: PcmAudio, checkpoint?: () => void): Promise<Uint8Array> {
  const rate = encoderInputRate('opus', audio.sampleRate);
  const input = await resample(audio, rate);
  return encodeWhole(new OggOpusStreamEncoder(rate, audio.sampleRate), input.samples, checkpoint);
}
