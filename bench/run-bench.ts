/**
 * `npm run bench [-- audio|streaming|scale-out|http|overload]`: the audio engine, streaming,
 * scale-out, HTTP and overload benches, all of them by default. None is a test: they measure and print, and assert nothing.
 */
import { runAudioEngineBench } from './audio-engine-bench';
import { runHttpBench } from './http/http-bench';
import { runStreamingBench } from './streaming-bench';

const SECTIONS: Readonly<Record<string, () => Promise<void>>> = {
  audio: runAudioEngineBench,
  streaming: runStreamingBench,
  'scale-out': async () => (await import('./scale-out-bench')).runScaleOutBench(),
  http: runHttpBench,
  overload: async () => (await import('./overload-bench')).runOverloadBench(),
};

async function main(): Promise<void> {
  const selected = process.argv.slice(2);
  const unknown = selected.filter((name) => !(name in SECTIONS));
  if (unknown.length > 0) throw new Error(`unknown bench ${unknown.join(', ')}; choose from ${Object.keys(SECTIONS).join(', ')}`);
  const names = selected.length > 0 ? selected : Object.keys(SECTIONS);
  for (const [index, name] of names.entries()) {
    if (index > 0) console.log('');
    await SECTIONS[name]();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
