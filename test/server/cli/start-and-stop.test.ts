import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Client } from 'pg';
import { MIGRATION_LOCK_KEY } from '../../../core/accounts/postgres-migrate';
import { eventually } from '../../support/eventually';
import { sharedPostgres } from '../../support/servers/shared-servers';
import { fixturesRoot } from '../../support/paths';
import { GatewayProcess } from './gateway-process';
import { CLI, listenOn, registeredKey, writeOpenAiCompatibleConfig } from './spawned-gateway-support';

/** Resolves with the error code of a TCP connection attempt, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe('server start and stop (spawned gateway processes)', function () {
  this.timeout(90_000);
  let directory: string;
  let gateway: GatewayProcess | undefined;
  beforeEach(() => (directory = mkdtempSync(join(tmpdir(), 'tts-gateway-process-'))));
  afterEach(() => {
    gateway?.kill();
    gateway = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  it('on a taken port prints one clear line, never "listening", and exits 1', async () => {
    const occupant = createServer();
    const port = await listenOn(occupant);
    try {
      writeFileSync(join(directory, 'tts-gateway.config.yaml'), `server:\n  host: 127.0.0.1\ndatabase:\n  url: "sqlite::memory:"\n`);
      gateway = new GatewayProcess(process.execPath, [CLI, 'serve'], { cwd: directory, env: { PORT: String(port) } });
      expect(await gateway.exitCode()).to.equal(1);
      expect(gateway.stderr).to.equal(
        `tts-gateway could not start: port ${port} on 127.0.0.1 is already in use (EADDRINUSE): stop the other process or choose another port (PORT or server.port)\n`,
      );
      expect(gateway.stdout).to.not.include('listening');
    } finally {
      occupant.close();
    }
  });

  it('treats a failed warm-up (an unknown default voice), which ends after the port is bound, as a failed start: one line, exit 1', async () => {
    writeFileSync(
      join(directory, 'tts-gateway.config.yaml'),
      `server:\n  host: 127.0.0.1\n  port: 0\ndatabase:\n  url: "sqlite::memory:"\nproviders:\n  - plugin: espeak\n    options:\n      defaultVoice: xx-nowhere\n`,
    );
    gateway = new GatewayProcess(process.execPath, [CLI, 'serve'], { cwd: directory });
    expect(await gateway.exitCode()).to.equal(1);
    expect(gateway.stderr).to.match(/^tts-gateway could not start: .*xx-nowhere.*\n$/);
    expect(gateway.stderr).to.not.match(/\n\s+at /);
  });

  it('on SIGTERM during start-up lets the migration under way end, closes, and exits 0 without serving', async () => {
    const postgres = await sharedPostgres();
    const url = await postgres.createDatabase('start_stop');
    // Another replica's migration: the lock this gateway's start waits for.
    const otherReplica = new Client({ connectionString: url });
    await otherReplica.connect();
    try {
      await otherReplica.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      writeFileSync(join(directory, 'tts-gateway.config.yaml'), `server:\n  host: 127.0.0.1\n  port: 0\ndatabase:\n  url: "${url}"\n`);
      gateway = new GatewayProcess(process.execPath, [CLI, 'serve'], { cwd: directory });
      await eventually(async () => {
        const waiting = await otherReplica.query("SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
        expect(waiting.rows[0].waiting).to.equal(1);
      }, 2_000);
      gateway.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Still starting: not ended by the signal's default action.
      expect([gateway.child.exitCode, gateway.child.signalCode]).to.deep.equal([null, null]);
      await otherReplica.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      expect(await gateway.exitCode()).to.equal(0);
      expect(gateway.stdout).to.include('stopped during start-up: not serving');
      expect(gateway.stdout).to.not.include('listening');
      expect(gateway.stderr).to.equal('');
      // The migration it waited for ran whole, and its connections were closed.
      const applied = await otherReplica.query('SELECT count(*)::int AS versions FROM schema_migrations');
      expect(applied.rows[0].versions).to.be.greaterThan(0);
      await eventually(async () => {
        const sessions = await otherReplica.query('SELECT count(*)::int AS others FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
        expect(sessions.rows[0].others).to.equal(0);
      }, 500);
    } finally {
      await otherReplica.end();
    }
  });

  it('on SIGTERM refuses new connections, finishes the request in flight, then exits 0', async () => {
    // A stand-in OpenAI-shaped server that holds the speech request until the test releases it.
    const mp3 = readFileSync(join(fixturesRoot, 'audio', 'speech-22050.mp3'));
    let held: ServerResponse | undefined;
    let speechArrived: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (speechArrived = resolve));
    const upstream = createServer((request, response) => {
      if (request.url === '/v1/audio/speech') {
        request.resume();
        held = response;
        speechArrived();
        return;
      }
      response.writeHead(404).end();
    });
    const upstreamPort = await listenOn(upstream);
    try {
      writeOpenAiCompatibleConfig(directory, upstreamPort);
      gateway = new GatewayProcess(process.execPath, [CLI, 'serve'], { cwd: directory });
      const port = await gateway.port();
      const base = `http://127.0.0.1:${port}`;
      const apiKey = await registeredKey(port);
      const inFlight = fetch(`${base}/api/v1/common/tts-sync`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
        body: JSON.stringify({ model: 'tts-1', voice: 'alloy', text: 'Still speaking when the stop comes.' }),
      });
      await arrived;

      gateway.child.kill('SIGTERM');
      const [shuttingDown] = await gateway.waitFor(/"message":"shutting down".*/);
      expect(shuttingDown).to.include('"inFlight":1');
      expect(await tryConnect(port)).to.equal('ECONNREFUSED');
      expect(gateway.child.exitCode).to.equal(null);

      held?.writeHead(200, { 'Content-Type': 'audio/mpeg' }).end(mp3);
      const answer = await inFlight;
      expect(answer.status).to.equal(200);
      // The answer in flight closes its connection, so that a keep-alive client reconnects elsewhere.
      expect(answer.headers.get('connection')).to.equal('close');
      const body = (await answer.json()) as { data: { file_size: number } };
      expect(body.data.file_size).to.equal(mp3.length);
      expect(await gateway.exitCode()).to.equal(0);
      expect(gateway.stdout).to.include('"message":"stopped"');
      expect(gateway.stderr).to.equal('');
    } finally {
      upstream.closeAllConnections();
      upstream.close();
    }
  });
});
