/**
 * Streaming figures of the zero-config gateway, run as `npm start` runs it (a separate process):
 * time to first byte against total time for a 3,000-character text (goal <= 5%), and the memory
 * of 32 concurrent 10,000-character streams (growth <= 150 MB, back within 20 MB 10 s after).
 * Not a test: it prints figures and whether each goal holds.
 */
import { performance } from 'node:perf_hooks';
import { MEGABYTE, peakSampler, sentences, startGatewayChild, type GatewayChild } from './gateway-child';
import { median } from './median';

/** One streamed request: milliseconds to the first byte and to the end, and the bytes. */
async function timedStream(port: number, apiKey: string, input: string, format: string): Promise<{ firstByte: number; total: number; bytes: number }> {
  const start = performance.now();
  const answer = await fetch(`http://127.0.0.1:${port}/v1/audio/speech`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, 'cache-control': 'no-store' },
    body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input, response_format: format }),
  });
  if (answer.status !== 200 || !answer.body) throw new Error(`speech answered ${answer.status}`);
  const reader = answer.body.getReader();
  let firstByte = 0;
  let bytes = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    if (bytes === 0) firstByte = performance.now() - start;
    bytes += next.value.byteLength;
  }
  return { firstByte, total: performance.now() - start, bytes };
}

const verdict = (holds: boolean): string => (holds ? 'holds' : 'MISSED');

async function firstByteShare(port: number, apiKey: string): Promise<void> {
  const text = sentences(3000);
  await timedStream(port, apiKey, text, 'mp3');
  for (const format of ['mp3', 'pcm']) {
    const runs = [];
    for (let run = 0; run < 3; run += 1) runs.push(await timedStream(port, apiKey, text, format));
    const share = median(runs.map((run) => run.firstByte / run.total));
    console.log(
      `3,000 characters, ${format.padEnd(3)}: first byte ${median(runs.map((run) => run.firstByte)).toFixed(0)} ms, total ${median(runs.map((run) => run.total)).toFixed(0)} ms, first byte / total ${(share * 100).toFixed(1)}% (goal <= 5%: ${verdict(share <= 0.05)})`,
    );
  }
}

async function concurrentStreams(gateway: GatewayChild): Promise<void> {
  const before = gateway.rss();
  const sampler = peakSampler(gateway);
  const text = sentences(10_000);
  const start = performance.now();
  const results = await Promise.allSettled(Array.from({ length: 32 }, () => timedStream(gateway.port, gateway.apiKey, text, 'mp3')));
  const peak = sampler.stop();
  const seconds = (performance.now() - start) / 1000;
  const failed = results.filter((result) => result.status === 'rejected').length;
  await new Promise((resolveWait) => setTimeout(resolveWait, 10_000));
  const after = gateway.rss();
  const growth = (peak - before) / MEGABYTE;
  const left = (after - before) / MEGABYTE;
  console.log(`32 concurrent 10,000-character mp3 streams: ${32 - failed} of 32 complete in ${seconds.toFixed(1)} s`);
  console.log(`  RSS before ${(before / MEGABYTE).toFixed(0)} MB, peak ${(peak / MEGABYTE).toFixed(0)} MB (${signed(growth)} MB, goal <= 150 MB: ${verdict(growth <= 150)}), 10 s after ${(after / MEGABYTE).toFixed(0)} MB (${signed(left)} MB, goal <= 20 MB: ${verdict(left <= 20)})`);
}

/** A change in megabytes with its sign: +12, -94. */
const signed = (megabytes: number): string => `${megabytes >= 0 ? '+' : ''}${megabytes.toFixed(0)}`;

export async function runStreamingBench(): Promise<void> {
  const gateway = await startGatewayChild();
  try {
    console.log('\nstreaming bench: zero-config gateway in its own process, /v1/audio/speech on the embedded engine');
    await firstByteShare(gateway.port, gateway.apiKey);
    await concurrentStreams(gateway);
  } finally {
    await gateway.stop();
  }
}

if (require.main === module) void runStreamingBench();
