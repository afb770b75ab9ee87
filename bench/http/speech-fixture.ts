/**
 * The MP3 the stand-in upstream answers: real speech made with the project's own eSpeak NG
 * engine and MP3 encoder (64 kbit/s), cut to the length that makes it about 20 KB.
 */
import { writeFileSync } from 'node:fs';
import { encodeSamples } from '../../plugins/espeak/audio-encoding';
import { loadEspeakEngine } from '../../plugins/espeak/engine';
import { VoiceCatalogue } from '../../plugins/espeak/voices';

const TEXT =
  'A gateway sits on every request, so its own cost is paid on every call. ' +
  'This sentence is spoken by the embedded engine and served by a stand-in upstream.';
/** 64 kbit/s is 8,000 bytes a second: 2.5 s of speech is about 20 KB. */
const SECONDS = 2.5;

/** Writes the MP3 to `path`; returns its size in bytes. */
export async function writeSpeechMp3(path: string): Promise<number> {
  const engine = await loadEspeakEngine();
  const voice = new VoiceCatalogue(engine.listVoices()).identifierOf('en-us');
  if (!voice) throw new Error('eSpeak NG has no en-us voice');
  const speech = engine.synthesize(voice, TEXT, { rate: 175, pitch: 50, range: 50, gain: 1 }, () => false);
  const samples = speech.samples.subarray(0, Math.min(speech.samples.length, Math.round(speech.sampleRate * SECONDS)));
  const mp3 = await encodeSamples(samples, speech.sampleRate, 'mp3');
  writeFileSync(path, mp3);
  return mp3.byteLength;
}
