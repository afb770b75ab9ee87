import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { GatewayError } from '../../errors';

/** Enough of ffmpeg's error output to say what went wrong, without keeping it all. */
const STDERR_TAIL_BYTES = 2048;

/**
 * One ffmpeg process used as a filter: bytes in through stdin, bytes out of stdout, read as
 * they come so neither side can block. `fail` turns a failure into the caller's coded error.
 * The process is killed on dispose, so an abandoned stream leaves nothing running.
 */
export class FfmpegPipe {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private output: Buffer[] = [];
  private stderrTail = '';
  private failure?: string;
  private readonly exited: Promise<number | null>;
  private running = true;

  constructor(
    path: string,
    args: readonly string[],
    private readonly fail: (reason: string) => GatewayError,
  ) {
    this.child = spawn(path, args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    this.child.stdout.on('data', (chunk: Buffer) => this.output.push(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    // A write after ffmpeg quit fails with EPIPE; the exit status tells the real story.
    this.child.stdin.on('error', (error) => {
      this.failure ??= `ffmpeg stopped reading its input (${(error as NodeJS.ErrnoException).code ?? error.message})`;
    });
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.failure ??= `ffmpeg could not start (${(error as NodeJS.ErrnoException).code ?? error.message})`;
        this.running = false;
        resolve(null);
      });
      this.child.once('close', (code) => {
        this.running = false;
        resolve(code);
      });
    });
  }

  /** The process id, for checks that it is gone. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Feeds bytes, waiting while ffmpeg's input is full; returns the output produced so far. */
  async write(bytes: Uint8Array): Promise<Uint8Array> {
    this.throwIfFailed();
    if (bytes.length > 0 && !this.child.stdin.write(bytes)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.child.stdin.off('drain', done);
          this.child.stdin.off('close', done);
          resolve();
        };
        this.child.stdin.once('drain', done);
        this.child.stdin.once('close', done);
      });
    }
    // Let the output that ffmpeg has already written reach us before answering.
    await new Promise((resolve) => setImmediate(resolve));
    this.throwIfFailed();
    return this.takeOutput();
  }

  /** Closes ffmpeg's input, waits for it to finish and returns the rest of its output. */
  async end(): Promise<Uint8Array> {
    this.throwIfFailed();
    this.child.stdin.end();
    const code = await this.exited;
    if (this.failure && code !== 0) throw this.fail(this.describe(this.failure));
    if (code !== 0) throw this.fail(this.describe(`ffmpeg exited with code ${code}`));
    return this.takeOutput();
  }

  /** Kills ffmpeg if it still runs. Idempotent. */
  dispose(): void {
    this.output = [];
    if (!this.running) return;
    this.child.stdin.destroy();
    this.child.kill('SIGKILL');
  }

  /** Resolves once the process is gone (for tests and orderly shutdown). */
  async closed(): Promise<void> {
    await this.exited;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.fail(this.describe(this.failure));
  }

  private describe(reason: string): string {
    const detail = this.stderrTail.trim().split('\n').pop();
    return detail ? `${reason}: ${detail}` : reason;
  }

  private takeOutput(): Uint8Array {
    const bytes = Buffer.concat(this.output);
    this.output = [];
    // A copy with its own ArrayBuffer: small Buffers share Node's pool, which must not be transferred.
    return new Uint8Array(bytes);
  }
}
