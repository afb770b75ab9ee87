import { PostgresServer } from './postgres-server';
import { RedisServer } from './redis-server';

/**
 * One PostgreSQL and one Redis for the whole test run, started by the first test that asks and
 * stopped when the run ends (run-tests.ts calls stopSharedServers; a process exit kills them).
 * A missing binary rejects, so the tests that need it fail with the package to install.
 */
let postgres: Promise<PostgresServer> | undefined;
let redis: Promise<RedisServer> | undefined;
interface StartedServer {
  stop(): Promise<void>;
  killNow(): void;
}

const started = new Set<StartedServer>();

function remember<T extends StartedServer>(server: Promise<T>): Promise<T> {
  return server.then((ready) => {
    started.add(ready);
    return ready;
  });
}

export function sharedPostgres(): Promise<PostgresServer> {
  postgres ??= remember(PostgresServer.start());
  return postgres;
}

export function sharedRedis(): Promise<RedisServer> {
  redis ??= remember(RedisServer.start());
  return redis;
}

/** A Redis of the caller's own, for tests that stop and restart it; stopped with the others. */
export function ownRedis(): Promise<RedisServer> {
  return remember(RedisServer.start());
}

export async function stopSharedServers(): Promise<void> {
  const servers = [...started];
  started.clear();
  await Promise.allSettled(servers.map((server) => server.stop()));
}

process.once('exit', () => {
  for (const server of started) server.killNow();
});
