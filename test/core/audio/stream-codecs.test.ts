import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { AudioFormat } from '../../../core/audio/audio-format';
import { AacStreamDecoder } from '../../../core/audio/decode/aac-decoder';
import { createStreamDecoder } from '../../../core/audio/decode/create-stream-decoder';
import { decodeAudio } from '../../../core/audio/decode/decode-audio';
import { createStreamEncoder } from '../../../core/audio/encode/create-stream-encoder';
import { encodeAudio } from '../../../core/audio/encode/encode-audio';
import { encoderInputRate } from '../../../core/audio/encode/encoder-rates';
import { resample } from '../../../core/audio/dsp/resample';
import { FfmpegPipe } from '../../../core/audio/ffmpeg/ffmpeg-pipe';
import { probeFfmpeg, probeFfmpegInBackground } from '../../../core/audio/ffmpeg/ffmpeg-probe';
import { GatewayError } from '../../../core/errors';
import { decodeForTest, durationSeconds, medianF0, rms } from '../../support/audio-analysis';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { speechPcm } from './speech-fixture';

function cut(bytes: Uint8Array, size: number): Uint8Array[] {
  const result: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) result.push(bytes.subarray(start, start + size));
  return result;
}

function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

function joinSamples(parts: readonly Float32Array[]): Float32Array {
  const output = new Float32Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    output.set(part, offset);
    offset += part.length;
  }
  return output;
}

/** True while a process with this id exists (signal 0 only checks). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('audio stream codecs', function () {
  this.timeout(30_000);
  const speech = speechPcm();

  describe('stream encoders', () => {
    for (const format of ['mp3', 'opus', 'flac', 'wav', 'pcm', 'aac'] as const) {
      it(`${format}: bytes come out while writing, and the whole decodes to the input`, async () => {
        const rate = encoderInputRate(format, speech.sampleRate);
        const input = await resample(speech, rate);
        const encoder = await createStreamEncoder(format, rate);
        const pieces: Uint8Array[] = [];
        let bytesBeforeEnd = 0;
        try {
          for (let start = 0; start < input.samples.length; start += 4410) {
            pieces.push(await encoder.write(input.samples.subarray(start, start + 4410)));
            bytesBeforeEnd += pieces[pieces.length - 1].length;
          }
          pieces.push(await encoder.end());
        } finally {
          encoder.dispose();
        }
        const bytes = joinBytes(pieces);
        // ffmpeg (aac) answers a second or so later than it is fed: its bytes may all come at the end.
        if (format !== 'aac') expect(bytesBeforeEnd, 'bytes before end').to.be.above(bytes.length / 2);
        const decoded = await decodeForTest(bytes, format, encoder.outputRate);
        expect(decoded.sampleRate).to.equal(encoder.outputRate);
        // MP3 and AAC cannot say how much encoder delay and padding they added (a few frames).
        expect(durationSeconds(decoded)).to.be.closeTo(durationSeconds(speech), format === 'aac' || format === 'mp3' ? 0.1 : 0.002);
        expect(rms(decoded)).to.be.closeTo(rms(speech), rms(speech) * 0.1);
        expect(medianF0(decoded)).to.be.closeTo(medianF0(speech), medianF0(speech) * 0.05);
      });
    }

    it('wav: a streamed header is open-ended, as OpenAI sends it, and our decoder reads to the end', async () => {
      const encoder = await createStreamEncoder('wav', 22050);
      const bytes = joinBytes([await encoder.write(speech.samples.subarray(0, 1000)), await encoder.write(speech.samples.subarray(1000)), await encoder.end()]);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      expect(view.getUint32(4, true)).to.equal(0xffffffff);
      expect(view.getUint32(40, true)).to.equal(0xffffffff);
      const decoded = await decodeAudio(bytes, 'wav');
      expect(decoded.samples.length).to.equal(speech.samples.length);
      // A whole file keeps exact sizes.
      const whole = (await encodeAudio(speech, 'wav')).audio;
      expect(new DataView(whole.buffer, whole.byteOffset).getUint32(40, true)).to.equal(speech.samples.length * 2);
    });

    it('opus: Ogg pages with a rising granule, the last with END and the true length', async () => {
      const encoder = await createStreamEncoder('opus', 24000, undefined, 22050);
      const input = await resample(speech, 24000);
      const bytes = joinBytes([await encoder.write(input.samples.subarray(0, 30_000)), await encoder.write(input.samples.subarray(30_000)), await encoder.end()]);
      const pages: { flags: number; granule: bigint }[] = [];
      for (let offset = 0; offset < bytes.length; ) {
        expect(String.fromCharCode(...bytes.subarray(offset, offset + 4))).to.equal('OggS');
        const segments = bytes[offset + 26];
        const bodyLength = bytes.subarray(offset + 27, offset + 27 + segments).reduce((total, lace) => total + lace, 0);
        pages.push({ flags: bytes[offset + 5], granule: new DataView(bytes.buffer, bytes.byteOffset + offset).getBigUint64(6, true) });
        offset += 27 + segments + bodyLength;
      }
      expect(pages[0].flags).to.equal(0x02);
      expect(pages.at(-1)?.flags).to.equal(0x04);
      expect(pages.slice(1, -1).every((page) => page.flags === 0)).to.equal(true);
      for (let index = 3; index < pages.length; index += 1) expect(pages[index].granule > pages[index - 1].granule).to.equal(true);
      expect(pages.at(-1)?.granule).to.equal(312n + BigInt(Math.round((input.samples.length * 48000) / 24000)));
    });

    it('flac: a stream leaves the length unknown, a whole file states it', async () => {
      const streamed = await createStreamEncoder('flac', 22050);
      const bytes = joinBytes([await streamed.write(speech.samples), await streamed.end()]);
      const whole = (await encodeAudio(speech, 'flac')).audio;
      // STREAMINFO: 36 bits of total samples end its 18th byte (offset 8 + 18 = 26).
      const totalSamples = (file: Uint8Array) => (file[21] & 0x0f) * 2 ** 32 + new DataView(file.buffer, file.byteOffset).getUint32(22, false);
      expect(totalSamples(bytes)).to.equal(0);
      expect(totalSamples(whole)).to.equal(speech.samples.length);
      expect((await decodeAudio(bytes, 'flac')).samples.length).to.equal(speech.samples.length);
    });
  });

  describe('stream decoders (one answer arriving in pieces)', () => {
    for (const format of ['wav', 'mp3', 'opus', 'flac', 'aac'] as const) {
      it(`${format}: pieces of 333 bytes decode to the same samples as the whole answer`, async () => {
        const encoded = await encodeAudio(speech, format);
        const whole = await decodeAudio(encoded.audio, format);
        const decoder = createStreamDecoder(format);
        const parts: Float32Array[] = [];
        try {
          for (const piece of cut(encoded.audio, 333)) parts.push(await decoder.write(piece));
          parts.push(await decoder.end());
        } finally {
          decoder.dispose();
        }
        const samples = joinSamples(parts);
        expect(decoder.sampleRate).to.equal(whole.sampleRate);
        expect(samples.length).to.be.closeTo(whole.samples.length, format === 'aac' ? 1024 : 0);
        if (format !== 'aac') expect(samples).to.deep.equal(whole.samples);
        // FLAC is decoded when its answer ends; ffmpeg (aac) answers later than it is fed.
        if (format !== 'flac' && format !== 'aac') expect(parts.slice(0, -1).some((part) => part.length > 0), 'samples before the end').to.equal(true);
      });
    }

    it('pcm: odd byte counts are carried over and the samples reassembled exactly', async () => {
      const bytes = (await encodeAudio(speech, 'pcm')).audio;
      const decoder = createStreamDecoder('pcm', 22050);
      const parts: Float32Array[] = [];
      for (let start = 0, size = 1; start < bytes.length; start += size, size = (size * 7 + 3) % 1001) parts.push(await decoder.write(bytes.subarray(start, start + size)));
      parts.push(await decoder.end());
      expect(joinSamples(parts)).to.deep.equal((await decodeAudio(bytes, 'pcm', 22050)).samples);
    });
  });

  describe('ffmpeg', () => {
    it('is found on PATH here (CI installs it), and a missing binary is reported as unavailable', () => {
      const found = probeFfmpeg();
      expect(found.available, found.problem).to.equal(true);
      expect(found.version).to.match(/^ffmpeg version/);
      const missing = probeFfmpeg({ ffmpegPath: '/nonexistent/bin/ffmpeg' });
      expect(missing.available).to.equal(false);
      expect(missing.problem).to.contain('not found');
    });

    it('is probed in the background without holding the event loop, sharing one run per path', async () => {
      // A path of its own (the same binary through a link), so that nothing cached answers.
      const folder = mkdtempSync(join(tmpdir(), 'ffmpeg-probe-'));
      try {
        const linked = join(folder, 'ffmpeg');
        symlinkSync(spawnSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).stdout.trim(), linked);
        const first = probeFfmpegInBackground({ ffmpegPath: linked });
        const second = probeFfmpegInBackground({ ffmpegPath: linked });
        expect(second).to.equal(first);
        // The event loop turns while ffmpeg starts: a timer set now fires before the probe settles.
        const order: string[] = [];
        setImmediate(() => order.push('event loop'));
        const probe = await first.then((found) => (order.push('probe'), found));
        expect(order).to.deep.equal(['event loop', 'probe']);
        expect(probe.available, probe.problem).to.equal(true);
        expect(probe.version).to.match(/^ffmpeg version/);
        expect(probeFfmpeg({ ffmpegPath: linked })).to.equal(probe);
        const missing = await probeFfmpegInBackground({ ffmpegPath: join(folder, 'missing') });
        expect(missing).to.include({ available: false, problem: `${join(folder, 'missing')} was not found` });
        const notFfmpeg = await probeFfmpegInBackground({ ffmpegPath: '/bin/true' });
        expect(notFfmpeg.available).to.equal(false);
        expect(notFfmpeg.problem).to.contain('did not answer like ffmpeg');
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('kills the process on dispose, leaving nothing running', async () => {
      const pipe = new FfmpegPipe('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 's16le', '-ar', '22050', '-ac', '1', '-i', 'pipe:0', '-f', 'adts', 'pipe:1'], (reason) => new GatewayError('TTS_ERR_INTERNAL', reason));
      await pipe.write(new Uint8Array(44100));
      const pid = pipe.pid;
      expect(pid).to.be.a('number');
      expect(processExists(pid as number)).to.equal(true);
      pipe.dispose();
      await pipe.closed();
      expect(processExists(pid as number)).to.equal(false);
    });

    it('turns a binary that cannot start into the caller’s coded error', async () => {
      const pipe = new FfmpegPipe('/nonexistent/bin/ffmpeg', ['-version'], (reason) => new GatewayError('TTS_ERR_INTERNAL', reason));
      await pipe.closed();
      await expectGatewayError(pipe.write(new Uint8Array(10)), 'TTS_ERR_INTERNAL');
    });

    it('reports bytes that are not AAC as a bad upstream response', async () => {
      const decoder = new AacStreamDecoder();
      const junk = new Uint8Array(4000).fill(0x41);
      await expectGatewayError(
        (async () => {
          await decoder.write(junk);
          await decoder.end();
        })(),
        'TTS_ERR_UPSTREAM_BAD_RESPONSE',
      );
    });

    it('decodes aac only through ffmpeg: without it the format is refused', async () => {
      const aac = (await encodeAudio(speech, 'aac')).audio;
      const formatName: AudioFormat = 'aac';
      await expectGatewayError(decodeAudio(aac, formatName, undefined, { ffmpegPath: '/nonexistent/bin/ffmpeg' }), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    });
  });
});
