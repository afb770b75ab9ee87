/**
 * Streaming figures of the zero-config gateway, run as `npm start` runs it (a separate process):
 * time to first byte against total time for a 3,000-character text (goal <= 5%), and the memory
 * of 32 concurrent 10,000-character streams (growth <= 150 MB, back within 20 MB 10 s after).
 * Not a test: it prints figures and whether each goal holds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { withMallocTuning } from '../server/malloc-tuning';
import { performance } from 'node:perf_hooks';

const MAIN = resolve(__dirname, '..', 'server', 'main.js');
const MEGABYTE = 1024 * 1024;

function sentences(characters: number): string {
  let text = '';
  for (let index = 1; text.length < characters; index += 1) text += `This is sentence number ${index}, read aloud by the embedded engine. `;
  return text.slice(0, characters).trim();
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

function rssBytes(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

async function startGateway(directory: string, port: number): Promise<ChildProcess> {
  writeFileSync(join(directory, 'tts-gateway.config.json'), JSON.stringify({ logging: { level: 'warn' } }));
  const child = spawn(process.execPath, [MAIN], { cwd: directory, env: { ...withMallocTuning(process.env), PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/v1/models`);
      if (answer.status === 401) return child;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the gateway did not start');
}

async function register(port: number): Promise<string> {
  const answer = await fetch(`http://127.0.0.1:${port}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'password-123' }),
  });
  return ((await answer.json()) as { data: { apiKey: string } }).data.apiKey;
}

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

const median = (values: number[]): number => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
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

async function concurrentStreams(port: number, apiKey: string, child: ChildProcess): Promise<void> {
  const before = rssBytes(child);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssBytes(child));
  }, 100);
  const text = sentences(10_000);
  const start = performance.now();
  const results = await Promise.allSettled(Array.from({ length: 32 }, () => timedStream(port, apiKey, text, 'mp3')));
  clearInterval(sampler);
  const seconds = (performance.now() - start) / 1000;
  const failed = results.filter((result) => result.status === 'rejected').length;
  await new Promise((resolveWait) => setTimeout(resolveWait, 10_000));
  const after = rssBytes(child);
  const growth = (peak - before) / MEGABYTE;
  const left = (after - before) / MEGABYTE;
  console.log(`32 concurrent 10,000-character mp3 streams: ${32 - failed} of 32 complete in ${seconds.toFixed(1)} s`);
  console.log(`  RSS before ${(before / MEGABYTE).toFixed(0)} MB, peak ${(peak / MEGABYTE).toFixed(0)} MB (${signed(growth)} MB, goal <= 150 MB: ${verdict(growth <= 150)}), 10 s after ${(after / MEGABYTE).toFixed(0)} MB (${signed(left)} MB, goal <= 20 MB: ${verdict(left <= 20)})`);
}

/** A change in megabytes with its sign: +12, -94. */
const signed = (megabytes: number): string => `${megabytes >= 0 ? '+' : ''}${megabytes.toFixed(0)}`;

export async function runStreamingBench(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'tts-gateway-stream-bench-'));
  const port = await freePort();
  const child = await startGateway(directory, port);
  try {
    const apiKey = await register(port);
    console.log('\nstreaming bench: zero-config gateway in its own process, /v1/audio/speech on the embedded engine');
    await firstByteShare(port, apiKey);
    await concurrentStreams(port, apiKey, child);
  } finally {
    child.kill('SIGTERM');
    rmSync(directory, { recursive: true, force: true });
  }
}

if (require.main === module) void runStreamingBench();
