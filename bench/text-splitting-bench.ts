import { splitText, type ChunkLimits } from '../core';
import { median } from './median';

/**
 * Texts a client may send whose splitting once grew with the square of their length, on the
 * event loop: at 10,000 characters each held every other request for 0.2 to 3 s. Each is made
 * at any length, so that the bench can show how its cost grows.
 */
const PATHOLOGICAL_TEXTS: Readonly<Record<string, (length: number) => string>> = {
  'emoji (one word segment each)': (length) => '😀'.repeat(length),
  'exclamation marks': (length) => '!'.repeat(length),
  'CJK full stops': (length) => '。'.repeat(length),
  'one-letter lines': (length) => 'a\n'.repeat(length / 2),
  'a comma before spaces': (length) => `a,${' '.repeat(length - 3)}b`,
  'a letter run with no break': (length) => 'a'.repeat(length),
  'prose (for comparison)': (length) => 'The gateway splits long text at sentences, then clauses and words. '.repeat(length / 68 + 1).slice(0, length),
};

const LIMITS: readonly ChunkLimits[] = [{ maxChars: 2000 }, { maxChars: 1500, maxBytes: 2048 }, { maxChars: 60 }];
const FULL_LENGTH = 10_000;
const QUARTER_LENGTH = 2_500;
const RUNS = 7;
/** Four times the text costs four times as much when linear, sixteen when quadratic. */
const GOAL_GROWTH = 6;

function medianMs(text: string, limits: ChunkLimits): number {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = process.hrtime.bigint();
    splitText(text, limits);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(times);
}

/**
 * `npm run bench -- text`: each text split at 10,000 characters (the API's limit) against the same
 * text at 2,500 in the same run: the growth says whether the cost is linear in the length.
 */
export async function runTextSplittingBench(): Promise<void> {
  console.log(`text splitting bench: median of ${RUNS} runs at ${FULL_LENGTH.toLocaleString('en-US')} characters, and its growth from ${QUARTER_LENGTH.toLocaleString('en-US')} (4x the text: linear 4x, quadratic 16x)`);
  for (const limits of LIMITS) {
    console.log(`limits ${JSON.stringify(limits)}:`);
    for (const [label, make] of Object.entries(PATHOLOGICAL_TEXTS)) {
      const full = medianMs(make(FULL_LENGTH), limits);
      const growth = full / medianMs(make(QUARTER_LENGTH), limits);
      const verdict = growth <= GOAL_GROWTH ? 'holds' : 'MISSED';
      console.log(`  ${label.padEnd(32)} ${full.toFixed(2).padStart(8)} ms  grows ${growth.toFixed(1).padStart(5)}x  (goal <= ${GOAL_GROWTH}x: ${verdict})`);
    }
  }
}
