import type { AccountLimits } from '../../core';
import { CliUsageError } from './cli-usage-error';
import { iso, readStdin, withAccounts, type CliIo } from './cli-io';
import { printable } from './printable';

/** Options as node:util parseArgs returns them. */
export type CliValues = Readonly<Record<string, string | boolean | undefined>>;

const text = (values: CliValues, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

/** The password from --password or --password-stdin (never both). */
async function passwordOf(values: CliValues, io: CliIo, command: string, topic: string): Promise<string | undefined> {
  const inline = text(values, 'password');
  if (inline !== undefined && values['password-stdin'] === true) throw new CliUsageError(`${command}: give --password or --password-stdin, not both`, topic);
  return values['password-stdin'] === true ? readStdin(io.stdin) : inline;
}

export async function keysCreate(values: CliValues, io: CliIo): Promise<number> {
  const password = await passwordOf(values, io, 'keys create', 'keys');
  return withAccounts(text(values, 'config'), io, async ({ accounts }) => {
    const issued = await accounts.provisionKey(String(values.email), text(values, 'name') ?? 'cli', password);
    io.stdout.write(`${issued.created ? 'Created account' : 'Account'} ${issued.account.email}\nAPI key (shown once): ${issued.apiKey.apiKey}\n`);
    return 0;
  });
}

export async function keysList(values: CliValues, io: CliIo): Promise<number> {
  return withAccounts(text(values, 'config'), io, async ({ accounts }) => {
    const account = await accounts.findAccount(String(values.email));
    const keys = await accounts.listKeys(account.id);
    if (keys.length === 0) io.stdout.write(`No keys for ${account.email} (revoked keys are not listed)\n`);
    for (const key of keys) {
      const lastUsed = key.lastUsedAt === null ? 'never' : iso(key.lastUsedAt);
      io.stdout.write(`${key.id}  ${printable(key.name)}  ${key.prefix}…  created ${iso(key.createdAt)}  last used ${lastUsed}\n`);
    }
    return 0;
  });
}

export async function keysRevoke(values: CliValues, io: CliIo): Promise<number> {
  return withAccounts(
    text(values, 'config'),
    io,
    async ({ accounts }) => {
      const account = await accounts.findAccount(String(values.email));
      await accounts.revokeKey(account.id, String(values.id));
      io.stdout.write(`Revoked ${String(values.id)} (a key of ${account.email})\n`);
      return 0;
    },
    true,
  );
}

export async function accountsCreate(values: CliValues, io: CliIo): Promise<number> {
  const password = await passwordOf(values, io, 'accounts create', 'accounts');
  return withAccounts(text(values, 'config'), io, async ({ operator }) => {
    const { account, apiKey } = await operator.createAccount(String(values.email), password);
    io.stdout.write(`Created account ${account.email} (${account.id})${password === undefined ? ', without a password' : ''}\nAPI key (shown once): ${apiKey.apiKey}\n`);
    return 0;
  });
}

const describeLimits = (limits: AccountLimits): string =>
  `requests per minute: ${limits.requestsPerMinute ?? 'default'}; characters per day: ${limits.charactersPerDay ?? 'default'}`;

export async function accountsShow(values: CliValues, io: CliIo): Promise<number> {
  return withAccounts(text(values, 'config'), io, async ({ operator }) => {
    const { account, limits } = await operator.limitsOf(String(values.email));
    io.stdout.write(`${account.email} (${account.id})\nLimits: ${describeLimits(limits)}\n`);
    return 0;
  });
}

/** `60` -> 60, `default` -> null (the configured default), absent -> undefined (unchanged). */
function limitOption(values: CliValues, name: string): number | null | undefined {
  const value = text(values, name);
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  if (!/^[1-9][0-9]*$/.test(value)) throw new CliUsageError(`--${name} must be a whole number above 0 or "default" (found "${value.slice(0, 20)}")`, 'accounts');
  return Number(value);
}

export async function accountsSetLimits(values: CliValues, io: CliIo): Promise<number> {
  const requestsPerMinute = limitOption(values, 'requests-per-minute');
  const charactersPerDay = limitOption(values, 'characters-per-day');
  if (requestsPerMinute === undefined && charactersPerDay === undefined) {
    throw new CliUsageError('accounts set-limits needs --requests-per-minute or --characters-per-day', 'accounts');
  }
  return withAccounts(text(values, 'config'), io, async ({ operator }) => {
    const { account, limits } = await operator.setLimits(String(values.email), { requestsPerMinute, charactersPerDay });
    io.stdout.write(`Limits of ${account.email}: ${describeLimits(limits)}\n`);
    return 0;
  });
}
