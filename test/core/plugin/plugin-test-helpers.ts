import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { LoadProvidersOptions, Logger } from '../../../core';
import { fixturesRoot } from '../../support/paths';

export const pluginFixtures = join(fixturesRoot, 'plugins');
export const configFixtures = join(fixturesRoot, 'config');

export interface LogRecord {
  readonly level: string;
  readonly message: string;
  readonly meta?: Record<string, unknown>;
}

export function recordingLogger(records: LogRecord[]): Logger {
  const record = (level: string) => (message: string, meta?: Record<string, unknown>) => records.push({ level, message, meta });
  return { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
}

/**
 * A temporary deployment: `builtin/fake/index.js` (a built-in plugin folder) and
 * `node_modules/tts-gateway-plugin-fake` (an installed third-party package).
 */
export class FakeDeployment {
  readonly root = mkdtempSync(join(tmpdir(), 'tts-gateway-plugins-'));
  readonly builtInDirectory = join(this.root, 'builtin');
  readonly records: LogRecord[] = [];

  constructor() {
    mkdirSync(join(this.builtInDirectory, 'fake'), { recursive: true });
    cpSync(join(pluginFixtures, 'fake-plugin.js'), join(this.builtInDirectory, 'fake', 'index.js'));
    cpSync(join(pluginFixtures, 'package-fake'), join(this.root, 'node_modules', 'tts-gateway-plugin-fake'), { recursive: true });
  }

  options(overrides: Partial<LoadProvidersOptions> = {}): LoadProvidersOptions {
    return {
      builtInDirectory: this.builtInDirectory,
      configDirectory: this.root,
      logger: recordingLogger(this.records),
      fetch,
      signal: new AbortController().signal,
      requireFrom: [],
      ...overrides,
    };
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(Error);
    return error as Error & { code?: string };
  }
  throw new Error('expected a rejection');
}
