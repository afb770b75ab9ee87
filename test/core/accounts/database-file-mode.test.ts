import { expect } from 'chai';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountStore } from '../../../core';

describe('core/accounts the SQLite database file', () => {
  it('is created readable and writable by the gateway user alone (0600), in a folder of its own (0700)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'database-mode-'));
    const previous = process.umask(0o022);
    try {
      const path = join(root, 'data', 'gateway.db');
      const store = createAccountStore(`sqlite:${path}`);
      await store.createAccountWithKey(
        { id: 'a1', email: 'mode@example.com', passwordHash: 'scrypt$x', createdAt: 1 },
        { id: 'k1', accountId: 'a1', name: 'default', prefix: 'tts_abc', keyHash: 'h'.repeat(64), createdAt: 1, lastUsedAt: null, revokedAt: null },
      );
      expect(statSync(path).mode & 0o777).to.equal(0o600);
      expect(statSync(join(root, 'data')).mode & 0o777).to.equal(0o700);
      await store.close();
    } finally {
      process.umask(previous);
      rmSync(root, { recursive: true, force: true });
    }
  });
});
