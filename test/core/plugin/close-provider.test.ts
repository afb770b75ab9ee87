import { expect } from 'chai';
import { closeProvider, type TtsProvider } from '../../../core';
import { recordingLogger, type LogRecord } from './plugin-test-helpers';

/** A provider's close() as the gateway's stop and a failed start call it: never thrown, never waited for forever. */
describe('core/plugin closeProvider', () => {
  let records: LogRecord[];
  beforeEach(() => (records = []));
  const close = (provider: Partial<Pick<TtsProvider, 'close'>> | undefined, limitMs = 1_000) => closeProvider(provider, 'acme', recordingLogger(records), limitMs);

  it('waits for a close() that finishes, and logs nothing', async () => {
    let closed = false;
    await close({ close: async () => void (closed = true) });
    expect(closed).to.equal(true);
    expect(records).to.deep.equal([]);
  });

  it('accepts a provider without close() (it is optional)', async () => {
    await close({});
    await close(undefined);
    expect(records).to.deep.equal([]);
  });

  it('logs a close() that throws, at once or later, as a warning naming the provider, with key-like values scrubbed', async () => {
    await close({
      close: () => {
        throw new Error('socket gone');
      },
    });
    await close({ close: async () => Promise.reject(new Error('logout refused for sk-abcdefghijklmnopqrstuvwxyz123456')) });
    expect(records.map((record) => [record.level, record.message, record.meta?.provider])).to.deep.equal([
      ['warn', 'Provider "acme" failed to close', 'acme'],
      ['warn', 'Provider "acme" failed to close', 'acme'],
    ]);
    expect(records[0].meta?.reason).to.equal('socket gone');
    expect(records[1].meta?.reason).to.include('logout refused').and.not.include('sk-abcdefghijklmnopqrstuvwxyz123456');
  });

  it('goes on after the limit when close() never settles, with a warning naming the provider and the limit', async () => {
    await close({ close: () => new Promise<void>(() => undefined) }, 30);
    expect(records).to.deep.equal([{ level: 'warn', message: 'Provider "acme" did not close within 0.03 s; going on without it', meta: { provider: 'acme' } }]);
  });

  it('goes on at the limit it is given, before a slower close() finishes (not at the default limit)', async () => {
    let closed = false;
    let timer: NodeJS.Timeout | undefined;
    // Finishes long after the 30 ms limit but well within the default one: waiting for it is the fault.
    const slowClose = () => new Promise<void>((resolve) => (timer = setTimeout(() => resolve(void (closed = true)), 5_000)));
    try {
      await close({ close: slowClose }, 30);
      expect(closed, 'close() had finished when closeProvider went on').to.equal(false);
      expect(records.map((record) => record.message)).to.deep.equal(['Provider "acme" did not close within 0.03 s; going on without it']);
    } finally {
      clearTimeout(timer);
    }
  });
});
