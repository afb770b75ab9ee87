import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLITE_MIGRATIONS, SqliteAccountStore, createAccountStore, hashPassword, verifyPassword } from '../../../core';

describe('core/accounts password hashing', () => {
  it('hashes as scrypt$N$r$p$salt$hash with a fresh salt each time', async () => {
    const first = await hashPassword('correct horse', { cost: 1024, blockSize: 8, parallelization: 1 });
    const second = await hashPassword('correct horse', { cost: 1024, blockSize: 8, parallelization: 1 });
    expect(first).to.match(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(first).to.not.equal(second);
    expect(await verifyPassword('correct horse', first)).to.equal(true);
    expect(await verifyPassword('correct horsf', first)).to.equal(false);
  });

  it('uses the default cost when none is given', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash.startsWith('scrypt$16384$8$1$')).to.equal(true);
    expect(await verifyPassword('correct horse', hash)).to.equal(true);
  });

  it('rejects malformed stored hashes instead of throwing', async () => {
    for (const stored of ['', 'bcrypt$x', 'scrypt$0$8$1$aa$bb', 'scrypt$1024$8$1$aa$']) {
      expect(await verifyPassword('anything', stored)).to.equal(false);
    }
  });
});

describe('core/accounts createAccountStore', () => {
  let directory: string;
  beforeEach(() => (directory = mkdtempSync(join(tmpdir(), 'store-'))));
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('creates parent folders and applies each migration once', async () => {
    const path = join(directory, 'nested', 'deeper', 'gateway.db');
    const first = createAccountStore(`sqlite:${path}`) as SqliteAccountStore;
    expect(existsSync(path)).to.equal(true);
    const versions = SQLITE_MIGRATIONS.map((migration) => migration.version);
    expect(first.appliedMigrations()).to.deep.equal(versions);
    await first.close();
    const again = new SqliteAccountStore(path);
    expect(again.appliedMigrations()).to.deep.equal(versions);
    await again.close();
  });

  it('applies a later migration on an existing database', async () => {
    const path = join(directory, 'gateway.db');
    await new SqliteAccountStore(path).close();
    const next = { version: 1000, name: 'extra', sql: 'CREATE TABLE extra (id INTEGER)' };
    const upgraded = new SqliteAccountStore(path, [...SQLITE_MIGRATIONS, next]);
    expect(upgraded.appliedMigrations()).to.deep.equal([...SQLITE_MIGRATIONS.map((migration) => migration.version), 1000]);
    await upgraded.close();
  });

  it('refuses other schemes without echoing the URL', () => {
    expect(() => createAccountStore('mysql://admin:s3cret@db/gateway'))
      .to.throw(/mysql:/)
      .and.satisfy((error: Error) => !error.message.includes('s3cret'));
    expect(() => createAccountStore('sqlite:')).to.throw(/needs a file path/);
  });
});
