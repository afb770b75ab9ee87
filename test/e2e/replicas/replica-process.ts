import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../support/paths';
import { freePort, waitUntil } from '../../support/servers/free-port';

/** The services the replicas share. */
export interface SharedServices {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly redisKeyPrefix: string;
  readonly s3Endpoint: string;
  readonly bucket: string;
  readonly s3Prefix: string;
  /** An OpenAI-compatible stand-in the replicas serve as model `tts-1` (voice `alloy`), beside espeak-ng. */
  readonly upstreamUrl?: string;
}

/** The providers section: espeak-ng, and the stand-in when there is one. */
function providersSection(upstreamUrl: string | undefined): string[] {
  if (!upstreamUrl) return [];
  return [
    'providers:',
    '  - plugin: espeak',
    '  - plugin: openai-compatible',
    '    id: stand-in',
    '    options:',
    `      baseUrl: ${upstreamUrl}`,
    '      models: [tts-1]',
    '      voices: [alloy]',
    '      formats: [mp3, wav, pcm]',
    '      pcmSampleRate: 24000',
  ];
}

/** A gateway process (`node dist/server/main.js --config <file>`), as a load balancer would see it. */
export class ReplicaProcess {
  private readonly output: string[] = [];

  private constructor(
    readonly name: string,
    readonly port: number,
    /** The replica's config file, which the CLI can use too. */
    readonly configFile: string,
    private readonly child: ChildProcess,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
  }

  /** Writes the replica's config file and starts the process (not waiting for it to listen). */
  static async spawn(name: string, folder: string, services: SharedServices): Promise<ReplicaProcess> {
    const port = await freePort();
    const configFile = join(folder, `${name}.yaml`);
    writeFileSync(
      configFile,
      [
        'server:',
        `  port: ${port}`,
        '  host: 127.0.0.1',
        'database:',
        `  url: ${services.databaseUrl}`,
        'storage:',
        '  driver: s3',
        '  s3:',
        `    bucket: ${services.bucket}`,
        `    endpoint: ${services.s3Endpoint}`,
        '    region: us-east-1',
        '    forcePathStyle: true',
        `    prefix: ${services.s3Prefix}`,
        '    accessKeyId: S3RVER',
        '    secretAccessKey: S3RVER',
        'redis:',
        `  url: ${services.redisUrl}`,
        `  keyPrefix: "${services.redisKeyPrefix}"`,
        'synthesis:',
        '  audioWorkers: 1',
        'logging:',
        '  level: warn',
        '  format: json',
        ...providersSection(services.upstreamUrl),
        '',
      ].join('\n'),
    );
    const child = spawn(process.execPath, [join(projectRoot, 'dist', 'server', 'main.js'), '--config', configFile], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ReplicaProcess(name, port, configFile, child);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Resolves once the replica answers HTTP; rejects with its output if it died. */
  async listening(): Promise<void> {
    await waitUntil(
      async () => {
        if (this.child.exitCode !== null) throw new Error(`replica ${this.name} exited with ${this.child.exitCode}: ${this.log().slice(-3000)}`);
        await fetch(`${this.baseUrl}/api/v1/tools/models`);
      },
      600,
      100,
    );
  }

  log(): string {
    return this.output.join('');
  }

  /** kill -9: no shutdown of any kind. */
  async killHard(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }

  /** A graceful stop (SIGTERM). */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
