/**
 * The zero-config gateway under more long work than it can do in time, as `npm start` runs it
 * (a separate process, `Cache-Control: no-store` so every request is synthesized):
 * - 16 concurrent 10,000-character tts-sync requests: every answer should be a 200 or a fast 503
 *   (load shedding), none a 504; the share served and p50/p99 of each kind;
 * - 8 concurrent 10,000-character tts-sync requests: RSS before, at the peak and 10 s after
 *   (goal: after <= 1.5x before).
 * Not a test: it prints figures and whether each goal holds.
 */
import { performance } from 'node:perf_hooks';
import { MEGABYTE, peakSampler, quantile, sentences, startGatewayChild, type GatewayChild } from './gateway-child';

/** A refusal within this is "fast": the client learns at once, no CPU was spent on it. */
const FAST_REFUSAL_MS = 2000;

interface Answer {
  readonly status: number;
  readonly ms: number;
}

async function ttsSync(gateway: GatewayChild, text: string): Promise<Answer> {
  const start = performance.now();
  const answer = await fetch(`http://127.0.0.1:${gateway.port}/api/v1/common/tts-sync`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': gateway.apiKey, 'cache-control': 'no-store' },
    body: JSON.stringify({ model: 'espeak-ng', voice: 'en-us', text, format: 'mp3' }),
  });
  await answer.arrayBuffer();
  return { status: answer.status, ms: performance.now() - start };
}

const verdict = (holds: boolean): string => (holds ? 'holds' : 'MISSED');
const milliseconds = (value: number): string => (Number.isNaN(value) ? '—' : `${value.toFixed(0)} ms`);

async function overload(gateway: GatewayChild): Promise<void> {
  const text = sentences(10_000);
  const answers = await Promise.all(Array.from({ length: 16 }, () => ttsSync(gateway, text)));
  const served = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status === 503);
  const others = answers.filter((answer) => answer.status !== 200 && answer.status !== 503);
  const slowRefusals = refused.filter((answer) => answer.ms > FAST_REFUSAL_MS).length;
  const all = answers.map((answer) => answer.ms);
  console.log(`16 concurrent 10,000-character tts-sync: ${served.length} served (${((served.length / 16) * 100).toFixed(0)}%), ${refused.length} refused with 503, ${others.length} other (${others.map((answer) => answer.status).join(', ') || 'none'})`);
  console.log(`  all answers p50 ${milliseconds(quantile(all, 0.5))}, p99 ${milliseconds(quantile(all, 0.99))}`);
  console.log(`  200: p50 ${milliseconds(quantile(served.map((answer) => answer.ms), 0.5))}, p99 ${milliseconds(quantile(served.map((answer) => answer.ms), 0.99))}`);
  console.log(`  503: p50 ${milliseconds(quantile(refused.map((answer) => answer.ms), 0.5))}, p99 ${milliseconds(quantile(refused.map((answer) => answer.ms), 0.99))}`);
  console.log(`  every answer a 200 or a 503 within ${FAST_REFUSAL_MS} ms, none a 504: ${verdict(others.length === 0 && slowRefusals === 0)}`);
}

async function memoryAfterLoad(gateway: GatewayChild): Promise<void> {
  const text = sentences(10_000);
  const before = gateway.rss();
  const sampler = peakSampler(gateway);
  const answers = await Promise.all(Array.from({ length: 8 }, () => ttsSync(gateway, text)));
  const peak = sampler.stop();
  await new Promise((resolveWait) => setTimeout(resolveWait, 10_000));
  const after = gateway.rss();
  const served = answers.filter((answer) => answer.status === 200).length;
  const mb = (bytes: number): string => `${(bytes / MEGABYTE).toFixed(0)} MB`;
  console.log(`8 concurrent 10,000-character tts-sync: ${served} of 8 served`);
  console.log(`  RSS before ${mb(before)}, peak ${mb(peak)}, 10 s after ${mb(after)} (${(after / before).toFixed(2)}x before, goal <= 1.5x: ${verdict(after <= 1.5 * before)})`);
}

export async function runOverloadBench(): Promise<void> {
  console.log('\noverload bench: zero-config gateway in its own process, tts-sync on the embedded engine');
  // Each scenario on a fresh process, so the second's "before" is a gateway that has not been loaded yet.
  for (const scenario of [overload, memoryAfterLoad]) {
    const gateway = await startGatewayChild();
    try {
      await scenario(gateway);
    } finally {
      await gateway.stop();
    }
  }
}

if (require.main === module) void runOverloadBench();
