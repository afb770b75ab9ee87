import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MissingServerError, postgresBinaries, redisServerBinary } from './binaries';

describe('test support: a missing server fails the tests, naming the Debian package', () => {
  let empty: string;
  beforeEach(() => (empty = mkdtempSync(join(tmpdir(), 'no-servers-'))));
  afterEach(() => rmSync(empty, { recursive: true, force: true }));

  it('names postgresql when no /usr/lib/postgresql/<version>/bin/initdb exists', () => {
    expect(() => postgresBinaries(empty)).to.throw(MissingServerError, /Debian package "postgresql"/);
    expect(() => postgresBinaries(join(empty, 'absent'))).to.throw(MissingServerError, /apt-get install/);
  });

  it('names redis-server when it is not on PATH', () => {
    const path = process.env.PATH;
    process.env.PATH = empty;
    try {
      expect(() => redisServerBinary()).to.throw(MissingServerError, /Debian package "redis-server"/);
    } finally {
      process.env.PATH = path;
    }
  });

  it('finds both on this machine (they are required, not optional)', () => {
    expect(postgresBinaries().initdb).to.match(/\/usr\/lib\/postgresql\/\d+\/bin\/initdb$/);
    expect(redisServerBinary()).to.match(/redis-server$/);
  });
});
