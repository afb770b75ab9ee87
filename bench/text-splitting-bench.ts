import { splitText, type ChunkLimits } from '../core';

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
/** Above every limit below, so that both lengths are split. */
const SMALL_LENGTH = 2_500;
/** Runs per text; the fastest counts: splitting is deterministic, so anything slower is the machine's noise (a collection, another process). */
const RUNS = 15;
/**
 * Four times the text costs four times as much when linear, sixteen when quadratic: the goal
 * leaves room for this machine's noise (up to 1.6x between two runs of a few milliseconds).
 */
const GOAL_GROWTH = 8;
/** And no such text may cost more than this many times the prose of the same length, split the same way. */
const GOAL_PROSE_RATIO = 100;
const PROSE = 'prose (for comparison)';

function fastestMs(text: string, limits: ChunkLimits): number {
  let fastest = Infinity;
  for (let run = 0; run < RUNS; run += 1) {
    const started = process.hrtime.bigint();
    splitText(text, limits);
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return fastest;
}

/**
 * `npm run bench -- text`: each text split at 10,000 characters (the API's limit) against the same
 * text at 2,500 in the same run: the growth says whether the cost is linear in the length.
 */
export async function runTextSplittingBench(): Promise<void> {
  console.log(`text splitting bench: fastest of ${RUNS} runs at ${FULL_LENGTH.toLocaleString('en-US')} characters, and its growth from ${SMALL_LENGTH.toLocaleString('en-US')} (4x the text: linear 4x, quadratic 16x)`);
  for (const limits of LIMITS) {
    console.log(`limits ${JSON.stringify(limits)}:`);
    const proseMs = fastestMs(PATHOLOGICAL_TEXTS[PROSE](FULL_LENGTH), limits);
    for (const [label, make] of Object.entries(PATHOLOGICAL_TEXTS)) {
      const full = label === PROSE ? proseMs : fastestMs(make(FULL_LENGTH), limits);
      const growth = full / fastestMs(make(SMALL_LENGTH), limits);
      const ratio = full / proseMs;
      const verdict = growth <= GOAL_GROWTH && ratio <= GOAL_PROSE_RATIO ? 'holds' : 'MISSED';
      console.log(
        `  ${label.padEnd(32)} ${full.toFixed(2).padStart(8)} ms  ${ratio.toFixed(0).padStart(4)}x prose  grows ${growth.toFixed(1).padStart(5)}x  (goal <= ${GOAL_PROSE_RATIO}x prose, grows <= ${GOAL_GROWTH}x: ${verdict})`,
      );
    }
  }
}
