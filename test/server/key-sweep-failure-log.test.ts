import { expect } from 'chai';
import type { AccountService } from '../../core';
import { startKeySweeper } from '../../server/periodic-jobs';
import { recordingWinstonLogger } from '../support/recording-winston-logger';
import { eventually } from '../support/eventually';

/** A failed sweep is logged for the operator; a database driver's message may quote a connection URL with its password. */
describe('server: the log line of a failed API key sweep', () => {
  it('names the failure without a key-like string its message quoted', async () => {
    const lines: Record<string, unknown>[] = [];
    const accounts = {
      sweepExpiredKeys: async () => {
        throw new Error('connect to postgres://gateway:token_Secret123456@db.example/gateway refused');
      },
    } as unknown as AccountService;
    const stop = startKeySweeper(accounts, recordingWinstonLogger(lines));
    try {
      await eventually(() => {
        expect(lines.map((line) => line.message)).to.include('API key sweep failed');
      });
      const line = lines.find((entry) => entry.message === 'API key sweep failed');
      expect(JSON.stringify(line)).to.not.include('Secret123456');
      expect(String(line?.errorMessage)).to.include('refused');
    } finally {
      stop();
    }
  });
});
