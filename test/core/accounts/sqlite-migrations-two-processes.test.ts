import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteAccountStore, SQLITE_MIGRATIONS } from '../../../core';

let migrateElsewhere: (() => void) | undefined;

/**
 * A store that, right after reading which migrations are applied, lets another process (the CLI,
 * started with the gateway) migrate the same file: what it read is then out of date.
 */
class StoreBehindAnotherProcess extends SqliteAccountStore {
  override appliedMigrations(): number[] {
    const applied = super.appliedMigrations();
    const other = migrateElsewhere;
    migrateElsewhere = undefined;
    other?.();
    return applied;
  }
}

describe('core/accounts SQLite migrations of two processes starting at once', () => {
  let directory: string;
  beforeEach(() => (directory = mkdtempSync(join(tmpdir(), 'migrate-race-'))));
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('a migration another process applied after this one looked is not run again: both open the file', () => {
    const file = join(directory, 'gateway.db');
    migrateElsewhere = () => void new SqliteAccountStore(file).close();
    const store = new StoreBehindAnotherProcess(file);
    try {
      expect(store.appliedMigrations()).to.deep.equal(SQLITE_MIGRATIONS.map((migration) => migration.version));
    } finally {
      void store.close();
    }
  });
});
