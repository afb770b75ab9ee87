import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { runCli } from '../../../server/cli/run-cli';

/** A text sink for stdout or stderr. */
class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

export interface CliRun {
  readonly status: number | 'serving';
  readonly stdout: string;
  readonly stderr: string;
}

/** A folder with a config file whose database is a file in it, so that several commands share it. */
export class CliSandbox {
  readonly directory = mkdtempSync(join(tmpdir(), 'tts-gateway-cli-'));
  readonly configFile = join(this.directory, 'tts-gateway.config.yaml');
  readonly databaseUrl = `sqlite:${join(this.directory, 'gateway.db')}`;

  constructor() {
    writeFileSync(this.configFile, `database:\n  url: "${this.databaseUrl}"\nauth:\n  registration: closed\n`);
  }

  /** Runs `tts-gateway <args> --config <file>` in-process; `stdin` feeds --password-stdin. */
  async run(args: readonly string[], stdin = ''): Promise<CliRun> {
    const stdout = new Capture();
    const stderr = new Capture();
    const input = new PassThrough();
    input.end(stdin);
    const status = await runCli([...args, '--config', this.configFile], { stdout, stderr, stdin: input, env: {}, cwd: this.directory });
    return { status, stdout: stdout.text, stderr: stderr.text };
  }

  /** Without the --config this sandbox adds. */
  async runBare(args: readonly string[]): Promise<CliRun> {
    const stdout = new Capture();
    const stderr = new Capture();
    const status = await runCli(args, { stdout, stderr, stdin: new PassThrough(), env: {}, cwd: this.directory });
    return { status, stdout: stdout.text, stderr: stderr.text };
  }

  remove(): void {
    rmSync(this.directory, { recursive: true, force: true });
  }
}

export const API_KEY_LINE = /^API key \(shown once\): (ttsg_[A-Za-z0-9_-]{43})$/m;
