import { parseArgs } from 'node:util';
import { ConfigError } from '../../config';
import { GatewayError, PluginLoadError } from '../../core';
import { GATEWAY_VERSION } from '../package-info';
import { runGateway } from '../run-gateway';
import { accountsCreate, accountsSetLimits, accountsShow, keysCreate, keysList, keysRevoke, type CliValues } from './account-commands';
import { HELP } from './cli-help';
import type { CliIo } from './cli-io';
import { CliUsageError } from './cli-usage-error';
import { usage } from './usage-command';

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

interface Command {
  /** Options besides --config and --help. */
  readonly options: OptionSpec;
  /** Options that must be given, with the placeholder the error shows. */
  readonly required: Readonly<Record<string, string>>;
  run(values: CliValues, io: CliIo): Promise<number | 'serving'>;
}

const password: OptionSpec = { password: { type: 'string' }, 'password-stdin': { type: 'boolean' } };

/** Every command: `group` alone (serve, usage) or `group sub` (keys create, ...). */
const COMMANDS: Readonly<Record<string, Command | Readonly<Record<string, Command>>>> = {
  serve: { options: {}, required: {}, run: serve },
  usage: { options: { email: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } }, required: { email: '<email>' }, run: usage },
  keys: {
    create: { options: { email: { type: 'string' }, name: { type: 'string' }, ...password }, required: { email: '<email>' }, run: keysCreate },
    list: { options: { email: { type: 'string' } }, required: { email: '<email>' }, run: keysList },
    revoke: { options: { email: { type: 'string' }, id: { type: 'string' } }, required: { email: '<email>', id: '<key-id>' }, run: keysRevoke },
  },
  accounts: {
    create: { options: { email: { type: 'string' }, ...password }, required: { email: '<email>' }, run: accountsCreate },
    show: { options: { email: { type: 'string' } }, required: { email: '<email>' }, run: accountsShow },
    'set-limits': {
      options: { email: { type: 'string' }, 'requests-per-minute': { type: 'string' }, 'characters-per-day': { type: 'string' } },
      required: { email: '<email>' },
      run: accountsSetLimits,
    },
  },
};

const isCommand = (entry: Command | Readonly<Record<string, Command>>): entry is Command => typeof (entry as Command).run === 'function';

async function serve(values: CliValues, io: CliIo): Promise<'serving'> {
  const argv = typeof values.config === 'string' ? ['--config', values.config] : [];
  await runGateway({ argv, env: io.env, stderr: io.stderr, exit: (code) => process.exit(code) });
  return 'serving';
}

/** node:util's parse errors, shortened to their first sentence. */
function parseOptions(args: readonly string[], options: OptionSpec, name: string, topic: string): CliValues {
  try {
    return parseArgs({ args: [...args], options: { ...options, config: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false })
      .values as CliValues;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('. ')[0].replace(/\.$/, '') : String(error);
    throw new CliUsageError(`${name}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`, topic);
  }
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number | 'serving'> {
  const [group, ...rest] = argv;
  if (group === undefined || group === '--help' || group === '-h' || group === 'help') {
    io.stdout.write(`${HELP.main}\n`);
    return 0;
  }
  if (group === '--version' || group === '-v') {
    io.stdout.write(`${GATEWAY_VERSION}\n`);
    return 0;
  }
  const entry = COMMANDS[group];
  if (entry === undefined) throw new CliUsageError(`unknown command "${group.slice(0, 40)}"`);
  let command: Command;
  let name = group;
  let args = rest;
  if (isCommand(entry)) {
    command = entry;
  } else {
    const [sub, ...subArgs] = rest;
    const names = Object.keys(entry);
    if (sub === undefined || sub.startsWith('-')) {
      if (rest.includes('--help') || rest.includes('-h')) {
        io.stdout.write(`${HELP[group]}\n`);
        return 0;
      }
      throw new CliUsageError(`${group} needs a command: ${names.slice(0, -1).join(', ')} or ${names.at(-1)}`, group);
    }
    const found = entry[sub];
    if (found === undefined) throw new CliUsageError(`unknown command "${group} ${sub.slice(0, 40)}" (${group} has ${names.join(', ')})`, group);
    command = found;
    name = `${group} ${sub}`;
    args = subArgs;
  }
  const values = parseOptions(args, command.options, name, group);
  if (values.help === true) {
    io.stdout.write(`${HELP[group]}\n`);
    return 0;
  }
  for (const [option, placeholder] of Object.entries(command.required)) {
    if (typeof values[option] !== 'string' || values[option] === '') throw new CliUsageError(`${name} needs --${option} ${placeholder}`, group);
  }
  return command.run(values, io);
}

/** Known failures as one line; anything else as its name and message (never a stack). */
function describeFailure(error: unknown): string {
  if (error instanceof GatewayError || error instanceof ConfigError || error instanceof PluginLoadError) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * Runs one CLI command. Returns the exit status: 0 done, 1 failed (one line on stderr),
 * 2 a command line it cannot run (one line plus where the help is); 'serving' for `serve`.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number | 'serving'> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (error instanceof CliUsageError) {
      const help = error.topic === undefined ? 'tts-gateway --help' : `tts-gateway ${error.topic} --help`;
      io.stderr.write(`tts-gateway: ${error.message}\nRun "${help}" for usage.\n`);
      return 2;
    }
    io.stderr.write(`tts-gateway: ${describeFailure(error)}\n`);
    return 1;
  }
}
