import { expect } from 'chai';
import { encodeAudio, GatewayError, type AudioFormat } from '../../../core';
import { FrameWalker, truncationOf } from '../../../core/audio/frame-walker';
import { checkProviderAudio } from '../../../core/synthesis/checked-audio';
import { speechMp3Bytes, speechPcm } from './speech-fixture';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { recordedAudio } from '../../support/recorded-audio';


/** Whole answers as the gateway's own encoders (and LAME via ffmpeg, for the fixture) make them. */
async function wholeAnswers(): Promise<Record<'mp3' | 'opus' | 'fixtureMp3', Uint8Array>> {
  const speech = speechPcm();
  return {
    mp3: (await encodeAudio(speech, 'mp3')).audio,
    opus: (await encodeAudio(speech, 'opus')).audio,
    fixtureMp3: speechMp3Bytes(),
  };
}

describe('core/audio answers cut short (FrameWalker, truncationOf)', () => {
  it('finds nothing wrong with whole MP3 and Ogg Opus files, nor with even-length pcm', async () => {
    const answers = await wholeAnswers();
    expect(truncationOf(answers.mp3, 'mp3')).to.equal(undefined);
    expect(truncationOf(answers.fixtureMp3, 'mp3')).to.equal(undefined);
    expect(truncationOf(answers.opus, 'opus')).to.equal(undefined);
    expect(truncationOf(new Uint8Array(1000), 'pcm')).to.equal(undefined);
  });

  it('finds an MP3 or an Ogg stream cut in the middle of a frame or page, and odd-length pcm', async () => {
    const answers = await wholeAnswers();
    for (const [format, bytes] of [['mp3', answers.mp3], ['mp3', answers.fixtureMp3], ['opus', answers.opus]] as [AudioFormat, Uint8Array][]) {
      // Short cuts, inside the last frame or page (a cut at a frame boundary cannot be seen).
      for (const cut of [1, 3, 20]) {
        expect(truncationOf(bytes.subarray(0, bytes.length - cut), format), `${format} less ${cut} bytes`).to.match(/ends in the middle of a frame/);
      }
    }
    expect(truncationOf(new Uint8Array(1001), 'pcm')).to.match(/odd number of bytes/);
  });

  it('follows frames across pieces of any size, as a stream arrives', async () => {
    const { mp3, opus } = await wholeAnswers();
    for (const [format, bytes] of [['mp3', mp3], ['opus', opus]] as [AudioFormat, Uint8Array][]) {
      for (const pieceSize of [1, 7, 1000]) {
        const whole = FrameWalker.for(format)!;
        const cut = FrameWalker.for(format)!;
        for (let start = 0; start < bytes.length; start += pieceSize) {
          whole.push(bytes.subarray(start, start + pieceSize));
          cut.push(bytes.subarray(start, Math.min(start + pieceSize, bytes.length - 5)));
        }
        expect(whole.cutShort, `${format} in ${pieceSize}-byte pieces`).to.equal(false);
        expect(cut.cutShort, `${format} cut, in ${pieceSize}-byte pieces`).to.equal(true);
      }
    }
  });

  it('does not refuse an Ogg Opus answer that ends on a page boundary without its end-of-stream page (README "Provider audio is checked")', async () => {
    /** Where each page starts, and its header_type (0x04: the stream's last page). */
    const pagesOf = (ogg: Uint8Array): { start: number; type: number }[] => {
      const pages: { start: number; type: number }[] = [];
      for (let start = 0; start + 27 <= ogg.length; ) {
        pages.push({ start, type: ogg[start + 5] });
        let body = 0;
        for (let index = 0; index < ogg[start + 26]; index += 1) body += ogg[start + 27 + index];
        start += 27 + ogg[start + 26] + body;
      }
      return pages;
    };
    const { opus } = await wholeAnswers();
    const recorded = ['azure', 'deepgram', 'polly'].map((plugin) => recordedAudio(plugin, 'synthesize-opus'));
    // The gateway's encoder and the recorded providers end with the flagged page...
    for (const answer of [opus, ...recorded]) expect(pagesOf(answer).at(-1)?.type).to.equal(0x04);
    // ...but a server that loses it (Kokoro-FastAPI did) sends whole pages, which a cut there cannot be told from.
    const withoutLastPage = opus.subarray(0, pagesOf(opus).at(-1)!.start);
    expect(truncationOf(withoutLastPage, 'opus')).to.equal(undefined);
  });

  it('gives no verdict on bytes that are not frames (a trailing tag, another format)', () => {
    expect(truncationOf(new TextEncoder().encode('not audio at all'), 'mp3')).to.equal(undefined);
    expect(truncationOf(new Uint8Array(10), 'wav')).to.equal(undefined);
  });

  it('makes an answer cut short a bad upstream answer (502), not a success', async () => {
    const { mp3 } = await wholeAnswers();
    const cut = (audio: Uint8Array, format: AudioFormat) => () => checkProviderAudio('acme', { audio, format, sampleRate: 24000, warnings: [] }, QUIET_LOGGER, 'test-request');
    for (const check of [cut(mp3.subarray(0, mp3.length - 10), 'mp3'), cut(new Uint8Array(4001), 'pcm')]) {
      expect(check).to.throw(GatewayError).with.property('code', 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    }
    expect(checkProviderAudio('acme', { audio: mp3, format: 'mp3', warnings: [] }, QUIET_LOGGER, 'test-request').audio).to.equal(mp3);
  });
});
