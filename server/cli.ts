import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { AccountService, openAccountStore, RedisKeyRevocations } from '../core';
import { describeStartupError } from './startup-error';

const USAGE = `Usage: npm run gateway -- <command> [options]

  keys create --email <email> [--name <name>] [--password <password>]
      Issues an API key for the account, creating the account when it does not exist
      (registration may be closed). The key is printed once.
  keys list --email <email>
      Lists the account's live keys (id, name, prefix, created, last used).
  keys revoke --email <email> --id <key-id>
      Revokes a key at once.

  --config <file> selects the configuration (as for npm start).`;

const stderrLogger = {
  warn: (message: string) => process.stderr.write(`${message}\n`),
  info: () => undefined,
};

/** Operator commands for config-driven deployments, on the same database as the gateway. */
async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' }, id: { type: 'string' }, config: { type: 'string' }, help: { type: 'boolean' } },
  });
  const [group, command] = positionals;
  if (values.help || group !== 'keys' || !command || !values.email) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const config = await loadConfig({ argv: values.config ? ['--config', values.config] : [], env: process.env });
  const store = await openAccountStore(config.database.url);
  // With Redis, a revocation reaches the running replicas at once, as one made through the API does.
  const revocations = config.redis && command === 'revoke' ? new RedisKeyRevocations({ url: config.redis.url, keyPrefix: config.redis.keyPrefix, logger: stderrLogger }) : undefined;
  if (revocations && !(await revocations.connected(5000))) process.stderr.write('Redis is unreachable: the replicas will refuse the key within their 10 s key cache time\n');
  const accounts = new AccountService(store, { registration: config.auth.registration, revocations });
  try {
    if (command === 'create') {
      const issued = await accounts.provisionKey(values.email, values.name ?? 'cli', values.password);
      process.stdout.write(`${issued.created ? 'Created account' : 'Account'} ${issued.account.email}\nAPI key (shown once): ${issued.apiKey.apiKey}\n`);
      return 0;
    }
    const account = await accounts.findAccount(values.email);
    if (command === 'list') {
      for (const key of await accounts.listKeys(account.id)) {
        const lastUsed = key.lastUsedAt ? new Date(key.lastUsedAt).toISOString() : 'never';
        process.stdout.write(`${key.id}  ${key.name}  ${key.prefix}…  created ${new Date(key.createdAt).toISOString()}  last used ${lastUsed}\n`);
      }
      return 0;
    }
    if (command === 'revoke' && values.id) {
      await accounts.revokeKey(account.id, values.id);
      process.stdout.write(`Revoked ${values.id}\n`);
      return 0;
    }
    process.stdout.write(`${USAGE}\n`);
    return 2;
  } finally {
    await revocations?.close();
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`tts-gateway: ${describeStartupError(error)}\n`);
    process.exit(1);
  },
);
