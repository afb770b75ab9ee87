import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Thrown (so the suite fails, never skips) when a server the tests need is not installed. */
export class MissingServerError extends Error {
  constructor(binary: string, debianPackage: string) {
    super(`${binary} is not installed: install the Debian package "${debianPackage}" (apt-get install -y --no-install-recommends ${debianPackage}); .ci/run does this`);
    this.name = 'MissingServerError';
  }
}

/** The bin folder of the newest PostgreSQL under /usr/lib/postgresql/<version>/bin. */
export function postgresBinaries(root = '/usr/lib/postgresql'): { initdb: string; postgres: string } {
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')))
        .sort((left, right) => Number(right) - Number(left))
    : [];
  if (versions.length === 0) throw new MissingServerError('PostgreSQL (initdb)', 'postgresql');
  const bin = join(root, versions[0], 'bin');
  return { initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres') };
}

/** redis-server on PATH. */
export function redisServerBinary(): string {
  for (const folder of (process.env.PATH ?? '').split(':').filter(Boolean)) {
    const candidate = join(folder, 'redis-server');
    if (existsSync(candidate)) return candidate;
  }
  throw new MissingServerError('redis-server', 'redis-server');
}
