/**
 * The zero-config gateway as `npm start` runs it (its malloc settings included), in its own
 * process, for benches that load it over HTTP and read its memory from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { withMallocTuning } from '../server/malloc-tuning';

const MAIN = resolve(__dirname, '..', 'server', 'main.js');
export const MEGABYTE = 1024 * 1024;

export interface GatewayChild {
  readonly port: number;
  readonly child: ChildProcess;
  /** A key of a freshly registered account. */
  readonly apiKey: string;
  /** The process's resident memory now, in bytes. */
  rss(): number;
  stop(): Promise<void>;
}

/** English sentences of about `characters` characters (the embedded engine reads them). */
export function sentences(characters: number): string {
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

export function rssOf(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Starts the gateway with `config` written as its config file (zero-config plus quiet logs by default). */
export async function startGatewayChild(config: Record<string, unknown> = {}): Promise<GatewayChild> {
  const directory = mkdtempSync(join(tmpdir(), 'tts-gateway-bench-'));
  const port = await freePort();
  writeFileSync(join(directory, 'tts-gateway.config.json'), JSON.stringify({ logging: { level: 'warn' }, ...config }));
  const child = spawn(process.execPath, [MAIN], { cwd: directory, env: { ...withMallocTuning(process.env), PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(forced);
    }
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    await waitUntilListening(port);
    const apiKey = await register(port);
    return { port, child, apiKey, rss: () => rssOf(child), stop };
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}

async function waitUntilListening(port: number): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/v1/models`);
      if (answer.status === 401) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
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

/** The value at quantile `q` (0..1) of `values`; NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Samples the child's RSS every 100 ms until stopped; answers the highest seen. */
export function peakSampler(gateway: GatewayChild): { stop(): number } {
  let peak = gateway.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, gateway.rss());
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, gateway.rss());
    },
  };
}
