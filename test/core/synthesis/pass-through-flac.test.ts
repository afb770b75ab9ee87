import { expect } from 'chai';
import { encodeAudio, SynthesisService, type AudioEngine, type GatewayError, type ModelDirectory, type TtsProvider } from '../../../core';
import { decodeFlac } from '../../../core/audio/decode/flac-decoder';
import { recordedAudio } from '../../support/recorded-audio';
import { resolvedModel } from '../../support/resolved-model';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { speechPcm } from '../audio/speech-fixture';
import { request } from './streaming-fixture';

/** STREAMINFO's 36-bit total of samples: the low 4 bits of byte 21 and bytes 22-25. */
function withoutTotal(flac: Uint8Array): Uint8Array {
  const streamed = Uint8Array.from(flac);
  streamed[21] &= 0xf0;
  streamed.fill(0, 22, 26);
  return streamed;
}

/** A service whose one provider streams `sent` natively as FLAC, in pieces of `pieceSize` bytes. */
function flacService(sent: Uint8Array, pieceSize: number, maxAudioSeconds?: number): SynthesisService {
  const provider: TtsProvider = {
    models: async () => [],
    voices: async () => [],
    synthesize: async () => {
      throw new Error('the stream is used');
    },
    synthesizeStream: async () => {
      async function* body() {
        for (let offset = 0; offset < sent.length; offset += pieceSize) yield sent.subarray(offset, offset + pieceSize);
      }
      return { format: 'flac', warnings: [], chunks: body() };
    },
  };
  const directory: ModelDirectory = {
    resolve: (model) => resolvedModel('acme', provider, model, { formats: ['flac'], maxInputChars: 4000 }),
    ensureVoice: async () => undefined,
  };
  const engine: AudioEngine = {
    decodableFormats: ['flac'],
    encodableFormats: ['flac'],
    process: async () => {
      throw new Error('nothing to process');
    },
    openStream: async () => {
      throw new Error('nothing to process');
    },
  };
  const sink = { save: async () => ({ fileName: 'f', size: 0 }) };
  return new SynthesisService(directory, engine, sink, QUIET_LOGGER, { chunkConcurrency: 1, timeoutMs: 10_000, ...(maxAudioSeconds !== undefined && { maxAudioSeconds }) });
}

const FLAC_REQUEST = request({ text: 'Hello there.', format: 'flac' });

async function secondsPassedThrough(sent: Uint8Array, pieceSize: number): Promise<number | undefined> {
  const stream = await flacService(sent, pieceSize).stream(FLAC_REQUEST, { requestId: 'flac' });
  expect(stream.applied.format, 'the provider bytes pass as they came').to.equal('native');
  let bytes = 0;
  for await (const piece of stream.chunks) bytes += piece.byteLength;
  expect(bytes).to.equal(sent.length);
  return stream.progress.durationSeconds;
}

/**
 * FLAC passed through as the provider streamed it counted 0 s (undefined): the usage report's
 * audioSeconds got nothing and maxAudioDuration was not held, while MP3, Ogg Opus, WAV and pcm
 * passed through are counted as they pass. Its STREAMINFO and frame headers say its length.
 */
describe('core/synthesis streaming: FLAC passed through counts its seconds', () => {
  it("counts a FLAC stream by its frames, whether its STREAMINFO states the total or not (libFLAC's and ffmpeg's)", async () => {
    const encoded = (await encodeAudio(speechPcm(), 'flac')).audio;
    const recorded = recordedAudio('deepgram', 'synthesize-flac');
    for (const [name, flac] of [['libFLAC, total stated', encoded], ['libFLAC, streamed (no total)', withoutTotal(encoded)], ['Deepgram (ffmpeg), recorded', recorded], ['Deepgram, no total', withoutTotal(recorded)]] as const) {
      const decoded = await decodeFlac(flac);
      const seconds = decoded.samples.length / decoded.sampleRate;
      expect(seconds, name).to.be.greaterThan(0.5);
      // Pieces of one byte and of 7 cut every frame header (and STREAMINFO) somewhere.
      for (const pieceSize of [1, 7, 1000, 4096]) {
        expect(await secondsPassedThrough(flac, pieceSize), `${name}, in ${pieceSize}-byte pieces`).to.be.closeTo(seconds, 1e-9);
      }
    }
  });

  it('holds a FLAC stream passed through to maxAudioDuration', async () => {
    const streamed = withoutTotal((await encodeAudio(speechPcm(), 'flac')).audio);
    const stream = await flacService(streamed, 4096, 2).stream(FLAC_REQUEST, { requestId: 'flac-long' });
    const failure = await (async () => {
      for await (const piece of stream.chunks) void piece;
    })().then(
      () => undefined,
      (error: GatewayError) => error,
    );
    expect(failure?.code).to.equal('TTS_ERR_AUDIO_TOO_LONG');
  });
});
