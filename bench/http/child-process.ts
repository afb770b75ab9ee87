/**
 * The processes the HTTP benchmark runs beside itself: the stand-in upstream and the gateway,
 * each a separate `node` process so that /proc shows its cost alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';

/** A child whose output is drained (a full pipe would stall it) and kept in part for errors. */
export interface RunningProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** The last lines it wrote, for a failure message. */
  tail(): string;
  stop(): Promise<void>;
}

const KEPT_LINES = 20;

/** Runs `node <nodeArguments>` (flags, the script, its arguments). */
export function startNode(nodeArguments: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): RunningProcess {
  const child = spawn(process.execPath, nodeArguments, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const keep = (chunk: Buffer): void => {
    lines.push(...chunk.toString('utf8').split('\n').filter((line) => line.length > 0));
    if (lines.length > KEPT_LINES) lines.splice(0, lines.length - KEPT_LINES);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  if (child.pid === undefined) throw new Error(`could not start node ${nodeArguments.join(' ')}`);
  return {
    child,
    pid: child.pid,
    tail: () => lines.join('\n'),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/** A TCP port free at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The first line a child prints on stdout, parsed as JSON. */
export function firstJsonLine<T>(running: RunningProcess, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`no answer from the child within ${timeoutMs} ms:\n${running.tail()}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      running.child.stdout?.off('data', onData);
      resolve(JSON.parse(buffered.slice(0, newline)) as T);
    };
    running.child.stdout?.on('data', onData);
  });
}

/** One HTTP exchange on a fresh connection: status, headers and body. */
export function exchange(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(url, { method: options.method ?? 'GET', headers: { connection: 'close', ...options.headers } }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts).toString('utf8') }));
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end(options.body);
  });
}

/** Polls `url` until anything answers; returns the milliseconds from `startedAt` (hrtime) to that answer. */
export async function waitForFirstAnswer(url: string, startedAt: bigint, running: RunningProcess, timeoutMs: number): Promise<number> {
  for (;;) {
    try {
      await exchange(url);
      return Number(process.hrtime.bigint() - startedAt) / 1e6;
    } catch {
      if (running.child.exitCode !== null) throw new Error(`the process exited (code ${running.child.exitCode}):\n${running.tail()}`);
      if (Number(process.hrtime.bigint() - startedAt) / 1e6 > timeoutMs) throw new Error(`no answer within ${timeoutMs} ms:\n${running.tail()}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}
