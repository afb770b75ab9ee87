import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { postgresBinaries } from './binaries';
import { freePort, waitUntil } from './free-port';

/** The unprivileged user the Debian package creates: initdb refuses to run as root. */
const SERVICE_USER = 'postgres';

/**
 * As root (CI), initdb and postgres run as the service user: spawned with its uid and gid rather
 * than through runuser, which does not pass SIGINT on, so the server can be stopped directly.
 */
function serviceUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    return { uid: Number(execFileSync('id', ['-u', SERVICE_USER]).toString().trim()), gid: Number(execFileSync('id', ['-g', SERVICE_USER]).toString().trim()) };
  } catch {
    throw new Error(`running as root, the tests start PostgreSQL as the user "${SERVICE_USER}", which the Debian package postgresql creates: install it`);
  }
}

/**
 * A throw-away PostgreSQL cluster: initdb in a temporary folder, trust authentication, on a
 * free port, its unix socket in that folder. Each test asks for a fresh database of its own.
 */
export class PostgresServer {
  private child: ChildProcess | undefined;
  private databases = 0;

  private constructor(
    private readonly folder: string,
    readonly port: number,
  ) {}

  static async start(): Promise<PostgresServer> {
    const binaries = postgresBinaries();
    const folder = mkdtempSync(join(tmpdir(), 'tts-gateway-pg-'));
    const data = join(folder, 'data');
    mkdirSync(data, { mode: 0o700 });
    const user = serviceUser();
    if (user) {
      chownSync(folder, user.uid, user.gid);
      chownSync(data, user.uid, user.gid);
    }
    const init = spawnSync(binaries.initdb, ['-D', data, '--auth=trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync'], { encoding: 'utf8', cwd: folder, ...user });
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout || init.error?.message}`);
    const server = new PostgresServer(folder, await freePort());
    await server.run(binaries.postgres, data, user);
    return server;
  }

  /** `postgres://` URL of the cluster's maintenance database. */
  get adminUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Creates an empty database and answers its URL. */
  async createDatabase(prefix = 'test'): Promise<string> {
    this.databases += 1;
    const name = `${prefix}_${process.pid}_${this.databases}`;
    await this.admin((client) => client.query(`CREATE DATABASE "${name}"`));
    return `postgres://postgres@127.0.0.1:${this.port}/${name}`;
  }

  async admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ connectionString: this.adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  private async run(postgres: string, data: string, user: { uid: number; gid: number } | undefined): Promise<void> {
    // fsync off: a test cluster that loses data in a power cut loses nothing of value.
    const args = ['-D', data, '-p', String(this.port), '-h', '127.0.0.1', '-k', this.folder, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'];
    const child = spawn(postgres, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: this.folder, ...user });
    const output: string[] = [];
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    this.child = child;
    let exited = false;
    child.once('exit', () => (exited = true));
    try {
      await waitUntil(async () => {
        if (exited) throw new Error(`postgres exited at start: ${output.join('').slice(-2000)}`);
        await this.admin((client) => client.query('SELECT 1'));
      });
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Fast shutdown (SIGINT), then the folder goes. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
    rmSync(this.folder, { recursive: true, force: true, maxRetries: 5 });
  }

  /** Last resort at process exit, where only synchronous work runs. */
  killNow(): void {
    this.child?.kill('SIGKILL');
    rmSync(this.folder, { recursive: true, force: true });
  }
}
