import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../config';
import { fixturesRoot } from '../support/paths';

export const configFixtures = join(fixturesRoot, 'config');

/** A fresh working directory per test, removed afterwards. */
export class TempDirectory {
  readonly path = mkdtempSync(join(tmpdir(), 'tts-gateway-config-'));

  /** Copies a fixture from test/fixtures/config under a new name; returns its path. */
  copy(fixture: string, as: string): string {
    const target = join(this.path, as);
    copyFileSync(join(configFixtures, fixture), target);
    return target;
  }

  write(name: string, content: string): string {
    const target = join(this.path, name);
    writeFileSync(target, content);
    return target;
  }

  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(Error);
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/** Loads `yaml` as the working directory's config file, with no variables and no arguments. */
/** Loads `yaml` as the folder's config file, with `env` as the whole environment. */
export async function loadYaml(yaml: string, env: Record<string, string> = {}): Promise<Awaited<ReturnType<typeof loadConfig>>> {
  const directory = new TempDirectory();
  try {
    directory.write('tts-gateway.config.yaml', yaml);
    return await loadConfig({ argv: [], env, cwd: directory.path });
  } finally {
    directory.remove();
  }
}
