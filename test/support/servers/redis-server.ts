import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { redisServerBinary } from './binaries';
import { freePort, waitUntil } from './free-port';

/** Answers once a PING on the port gets PONG. */
function ping(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('error', reject);
    socket.once('data', (data) => {
      socket.destroy();
      if (data.toString().startsWith('+PONG')) resolve();
      else reject(new Error(`redis answered ${data.toString().slice(0, 50)}`));
    });
    socket.write('PING\r\n');
  });
}

/** A throw-away redis-server without persistence, which a test may stop and start again on the same port. */
export class RedisServer {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.resume();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts (again) on the same port. */
  async resume(): Promise<void> {
    if (this.child) return;
    const binary = redisServerBinary();
    const child = spawn(binary, ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.child = child;
    let exited = false;
    child.once('exit', () => (exited = true));
    await waitUntil(async () => {
      if (exited) throw new Error(`redis-server exited at start on port ${this.port}`);
      await ping(this.port);
    });
  }

  /** Stops the server (its data is gone). */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  killNow(): void {
    this.child?.kill('SIGKILL');
  }
}
