/**
 * `npm run bench [-- audio|text|streaming|scale-out|http|overload|paired]`: the audio engine, text
 * splitting, streaming, scale-out, HTTP and overload benches, all of them by default (`paired`, two builds side by side,
 * only when named). None is a test: they measure and print, and assert nothing.
 */
import { runAudioEngineBench } from './audio-engine-bench';
import { runHttpBench } from './http/http-bench';
import { runStreamingBench } from './streaming-bench';
import { runTextSplittingBench } from './text-splitting-bench';

const SECTIONS: Readonly<Record<string, () => Promise<void>>> = {
  audio: runAudioEngineBench,
  text: runTextSplittingBench,
  streaming: runStreamingBench,
  'scale-out': async () => (await import('./scale-out-bench')).runScaleOutBench(),
  http: runHttpBench,
  overload: async () => (await import('./overload-bench')).runOverloadBench(),
};
/** Run only when named: it needs another build to compare with. */
const ON_REQUEST: Readonly<Record<string, () => Promise<void>>> = {
  paired: async () => (await import('./http/paired-bench')).runPairedBench(),
};

async function main(): Promise<void> {
  const selected = process.argv.slice(2);
  const all = { ...SECTIONS, ...ON_REQUEST };
  const unknown = selected.filter((name) => !(name in all));
  if (unknown.length > 0) throw new Error(`unknown bench ${unknown.join(', ')}; choose from ${Object.keys(all).join(', ')}`);
  const names = selected.length > 0 ? selected : Object.keys(SECTIONS);
  for (const [index, name] of names.entries()) {
    if (index > 0) console.log('');
    await all[name]();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
