import { AccountOperator, AccountService, RedisKeyRevocations } from '../../core';
import { ConfigError, loadConfig } from '../../config';
import { openDatabase } from '../open-database';

const IN_MEMORY_DATABASE = 'sqlite::memory:';

/** The process's streams and environment, passed in so that tests can run commands in-process. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly env: NodeJS.ProcessEnv;
  /** Where the configuration is searched for when --config is absent. */
  readonly cwd: string;
}

export interface AccountTools {
  readonly accounts: AccountService;
  readonly operator: AccountOperator;
}

/** How long a revocation waits for Redis before saying the replicas will learn of it later. */
const REDIS_CONNECT_TIMEOUT_MS = 5_000;

/**
 * Opens the gateway's account database (as the server would find it), runs `action`, closes it.
 * With `announceRevocations` and `redis.url` set, a revocation reaches the running replicas at
 * once over Redis, as one made through the API does.
 */
export async function withAccounts<T>(
  configFile: string | undefined,
  io: CliIo,
  action: (tools: AccountTools) => Promise<T>,
  announceRevocations = false,
): Promise<T> {
  const config = await loadConfig({ argv: configFile === undefined ? [] : ['--config', configFile], env: io.env, cwd: io.cwd });
  if (config.database.url === IN_MEMORY_DATABASE) {
    // This process's own empty database: a key issued there would be lost as the command ends.
    throw new ConfigError(
      `database.url is "${IN_MEMORY_DATABASE}": the CLI cannot reach a running gateway's in-memory database, and what it wrote would be lost when it exits; use sqlite:<file> or postgres://`,
      [],
      config.sourceFile,
    );
  }
  const store = await openDatabase(config.database);
  const logger = { warn: (message: string) => void io.stderr.write(`${message}\n`), info: () => undefined };
  const revocations =
    announceRevocations && config.redis ? new RedisKeyRevocations({ url: config.redis.url, keyPrefix: config.redis.keyPrefix, logger }) : undefined;
  try {
    if (revocations && !(await revocations.connected(REDIS_CONNECT_TIMEOUT_MS))) {
      io.stderr.write('Redis is unreachable: the replicas will refuse the key within their 10 s key cache time\n');
    }
    const accounts = new AccountService(store, { registration: config.auth.registration, maxKeysPerAccount: config.auth.maxKeysPerAccount, revocations });
    return await action({ accounts, operator: new AccountOperator(accounts, store) });
  } finally {
    await revocations?.close();
    await store.close();
  }
}

/** The whole of standard input, without its final line break: for --password-stdin. */
export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

export const iso = (milliseconds: number): string => new Date(milliseconds).toISOString();
