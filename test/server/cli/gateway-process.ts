import { spawn, type ChildProcess } from 'node:child_process';

/** A gateway run as its own process, with its output collected line by line. */
export class GatewayProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  private readonly exited: Promise<number | null>;
  private readonly waiters: { pattern: RegExp; resolve: (match: RegExpExecArray) => void }[] = [];

  constructor(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
    this.child = spawn(command, [...args], { cwd: options.cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
      this.check();
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Resolves with the first stdout match of `pattern` (already printed or yet to come). */
  waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const match = pattern.exec(this.stdout);
      if (match) return resolve(match);
      this.waiters.push({ pattern, resolve });
      void this.exited.then((code) => reject(new Error(`the gateway exited (${code}) before printing ${pattern}:\n${this.stdout}\n${this.stderr}`)));
    });
  }

  /** The port from the "listening" line. */
  async port(): Promise<number> {
    const match = await this.waitFor(/tts-gateway listening.*?"port":(\d+)/);
    return Number(match[1]);
  }

  exitCode(): Promise<number | null> {
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  private check(): void {
    for (const waiter of [...this.waiters]) {
      const match = waiter.pattern.exec(this.stdout);
      if (match) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  }
}
