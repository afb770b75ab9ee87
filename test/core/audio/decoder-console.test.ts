import { expect } from 'chai';
import { decodeAudio } from '../../../core/audio/decode/decode-audio';
import { encodeAudio } from '../../../core/audio/encode/encode-audio';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { speechMp3Bytes, speechPcm } from './speech-fixture';

/** The answer with 2,000 bytes from a third of the way in overwritten with a fixed junk pattern (the pages and frames after it intact). */
function junkWithin(audio: Uint8Array): Uint8Array {
  const corrupted = audio.slice();
  const start = Math.floor(audio.length / 3);
  for (let index = start; index < start + 2000; index += 1) corrupted[index] = (index * 37) & 0xff;
  return corrupted;
}

/** What `work` writes to the process's stderr (kept from the test run's output). */
async function stderrOf(work: () => Promise<void>): Promise<string> {
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    await work();
  } finally {
    process.stderr.write = write;
  }
  return written.join('');
}

/**
 * mpg123-decoder and opus-decoder print a console.error line for each frame they refuse
 * ("mpg123-decoder: -1 MPG123_ERR", "libopus -4 OPUS_INVALID_PACKET: ..."; dozens for one bad
 * Ogg Opus answer): noise on the gateway's stderr beside its structured log. The same facts come
 * back in the decoders' `errors`, which the gateway reports as the answer's 502 and logs itself.
 */
describe('core/audio decoders on a bad answer: no lines of their own on stderr', () => {
  it('refuses a corrupt MP3 or Ogg Opus answer with the reason, and the decoders print nothing', async () => {
    const answers = { mp3: speechMp3Bytes(), opus: (await encodeAudio(speechPcm(), 'opus')).audio };
    for (const [format, audio] of Object.entries(answers) as ['mp3' | 'opus', Uint8Array][]) {
      let message = '';
      const printed = await stderrOf(async () => {
        message = (await expectGatewayError(decodeAudio(junkWithin(audio), format), 'TTS_ERR_UPSTREAM_BAD_RESPONSE')).message;
      });
      expect(message, format).to.match(/corrupt data/);
      expect(printed, format).to.equal('');
    }
  });

  it('lets every other console.error line through', async () => {
    await decodeAudio(speechMp3Bytes(), 'mp3');
    const printed = await stderrOf(async () => console.error('libopus is named here, but this is not its line'));
    expect(printed).to.equal('libopus is named here, but this is not its line\n');
  });
});
