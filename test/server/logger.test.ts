import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createLogger } from '../../server/logger';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Collects what is written to stdout until `stop()`. */
function stdoutCapture(): { writes: string[]; stop: () => void } {
  const writes: string[] = [];
  const original = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    writes.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  return { writes, stop: () => (process.stdout.write = original) };
}

/** Captures what is written to stdout by `run`, until the first write (lines are batched) or 2 s. */
async function captureStdout(run: () => unknown): Promise<string[]> {
  const capture = stdoutCapture();
  try {
    await run();
    const givenUpAt = Date.now() + 2000;
    while (capture.writes.length === 0 && Date.now() < givenUpAt) await new Promise((resolve) => setTimeout(resolve, 5));
    await nextTurn();
  } finally {
    capture.stop();
  }
  return capture.writes;
}

/** Everything written to stdout while `run` runs and `waitMs` after (longer than a batch waits). */
async function captureStdoutFor(waitMs: number, run: () => unknown): Promise<string[]> {
  const capture = stdoutCapture();
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  } finally {
    capture.stop();
  }
  return capture.writes;
}

describe('server createLogger', () => {
  it('writes one JSON object per line, level, message and time first, lines close together in one write', async () => {
    const logger = createLogger({ level: 'info', format: 'json' });
    const writes = await captureStdout(async () => {
      logger.info('request', { requestId: 'r-1', status: 200, latencyMs: 1.5 });
      // Another turn of the event loop: its line still shares the write.
      await nextTurn();
      logger.info('request', { requestId: 'r-2', status: 404 });
      logger.debug('hidden at info');
    });
    expect(writes).to.have.length(1);
    const lines = writes[0].split('\n').filter((line) => line.length > 0);
    expect(lines).to.have.length(2);
    const first = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(Object.keys(first).slice(0, 3)).to.deep.equal(['level', 'message', 'timestamp']);
    expect(first).to.include({ level: 'info', message: 'request', requestId: 'r-1', status: 200, latencyMs: 1.5 });
    expect(Date.parse(String(first.timestamp))).to.be.a('number').and.not.NaN;
  });

  it('stamps each line with the current time, to the millisecond, in ISO 8601', async () => {
    const logger = createLogger({ level: 'info', format: 'json' });
    const stamps: { before: number; after: number }[] = [];
    const writes = await captureStdout(async () => {
      for (let line = 0; line < 3; line += 1) {
        const before = Date.now();
        logger.info('request', { line });
        stamps.push({ before, after: Date.now() });
        // Lines in other seconds and milliseconds: the cached part of the time must follow.
        await new Promise((resolve) => setTimeout(resolve, line === 0 ? 1001 : 7));
      }
      // Past the batch's wait: the last lines are written before the capture ends.
      await new Promise((resolve) => setTimeout(resolve, 60));
    });
    const lines = writes.join('').split('\n').filter((line) => line.length > 0);
    expect(lines).to.have.length(3);
    lines.forEach((line, index) => {
      const timestamp = String((JSON.parse(line) as { timestamp: unknown }).timestamp);
      expect(timestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(timestamp)).to.be.within(stamps[index].before, stamps[index].after);
    });
  });

  it('does no work for a line below the level, and follows a level changed at run time', async () => {
    const logger = createLogger({ level: 'info', format: 'json' });
    let fieldReads = 0;
    const entry = {
      get planned() {
        fieldReads += 1;
        return 'chunks=1';
      },
    };
    const quietWrites = await captureStdoutFor(60, () => {
      expect(logger.debug('synthesis planned', entry)).to.equal(logger);
    });
    expect(fieldReads).to.equal(0);
    expect(quietWrites).to.deep.equal([]);

    logger.level = 'debug';
    const writes = await captureStdout(() => logger.debug('synthesis planned', entry));
    expect(fieldReads).to.be.greaterThan(0);
    expect(JSON.parse(writes.join('').trim())).to.include({ level: 'debug', message: 'synthesis planned', planned: 'chunks=1' });
  });

  it('keeps a child logger’s fields', async () => {
    const logger = createLogger({ level: 'info', format: 'json' });
    const writes = await captureStdout(() => logger.child({ component: 'cache' }).info('swept'));
    expect(JSON.parse(writes.join('').trim())).to.include({ message: 'swept', component: 'cache' });
  });

  it('redacts credentials and user text at any depth without changing the caller’s objects', async () => {
    const logger = createLogger({ level: 'info', format: 'json' });
    const details = [{ field: 'voice', provider: { apiKey: 'sk-secret-value', region: 'eu' } }];
    const meta = { text: 'Hello, private words', Authorization: 'Bearer ttsg_x', details };
    const writes = await captureStdout(() => logger.warn('request failed', meta));
    const line = writes.join('');
    expect(line).to.not.include('sk-secret-value').and.not.include('private words').and.not.include('ttsg_x');
    const entry = JSON.parse(line) as { text: string; Authorization: string; details: { provider: { apiKey: string; region: string } }[] };
    expect(entry.text).to.equal('[redacted]');
    expect(entry.Authorization).to.equal('[redacted]');
    expect(entry.details[0].provider).to.deep.equal({ apiKey: '[redacted]', region: 'eu' });
    expect(details[0].provider.apiKey).to.equal('sk-secret-value');
  });

  it('redacts a secret however deep it sits: deeper than it scrubs, it writes nothing of the value', async () => {
    const logger = createLogger({ level: 'info', format: 'json' });
    const nested = (levels: number): Record<string, unknown> => (levels === 0 ? { apiKey: 'sk-deep-secret', region: 'eu' } : { next: nested(levels - 1) });
    const writes = await captureStdout(() => logger.warn('nested', { ten: nested(10), forty: nested(40) }));
    const line = writes.join('');
    expect(line).to.not.include('sk-deep-secret');
    let ten = (JSON.parse(line) as { ten: Record<string, unknown> }).ten;
    for (let level = 0; level < 10; level += 1) ten = ten.next as Record<string, unknown>;
    expect(ten).to.deep.equal({ apiKey: '[redacted]', region: 'eu' });
    expect(line).to.include('[too deep]');
  });

  it('redacts a secret inside a cycle', async () => {
    const logger = createLogger({ level: 'info', format: 'json' });
    const root: Record<string, unknown> = { name: 'root' };
    root.child = { apiKey: 'sk-cycle-secret', back: root };
    const writes = await captureStdout(() => logger.warn('cyclic', { root }));
    expect(writes.join('')).to.not.include('sk-cycle-secret');
    expect(JSON.parse(writes.join('')).root.child).to.deep.equal({ apiKey: '[redacted]', back: '[Circular]' });
  });

  it('still writes an entry that JSON.stringify refuses (a cycle, a BigInt)', async () => {
    const logger = createLogger({ level: 'info', format: 'json' });
    const cyclic: Record<string, unknown> = { name: 'node' };
    cyclic.self = cyclic;
    const writes = await captureStdout(() => logger.error('odd entry', { cyclic, count: 10n }));
    const entry = JSON.parse(writes.join('')) as { cyclic: { self: string }; count: string; message: string };
    expect(entry).to.include({ message: 'odd entry', count: '10' });
    expect(entry.cyclic.self).to.equal('[Circular]');
  });

  it('writes readable lines in the pretty format', async () => {
    const logger = createLogger({ level: 'debug', format: 'pretty' });
    const writes = await captureStdout(() => logger.debug('planned', { model: 'espeak-ng', password: 'hunter2' }));
    expect(writes.join('')).to.match(/^\d\d:\d\d:\d\d\.\d{3} debug planned \{"model":"espeak-ng","password":"\[redacted\]"\}\n$/);
  });

  it('writes a large batch at once, without waiting', async () => {
    const logger = createLogger({ level: 'info', format: 'json' });
    const capture = stdoutCapture();
    let writesBeforeWaiting: number;
    try {
      for (let line = 0; line < 200; line += 1) logger.info('request', { requestId: `r-${line}`, path: '/v1/audio/speech'.repeat(10) });
      writesBeforeWaiting = capture.writes.length;
      // The rest follows within the batch's wait.
      const givenUpAt = Date.now() + 2000;
      const lines = () => capture.writes.join('').split('\n').filter((line) => line.length > 0);
      while (lines().length < 200 && Date.now() < givenUpAt) await new Promise((resolve) => setTimeout(resolve, 5));
    } finally {
      capture.stop();
    }
    expect(writesBeforeWaiting, 'written during the logging calls').to.be.greaterThan(0);
    expect(capture.writes.join('').split('\n').filter((line) => line.length > 0)).to.have.length(200);
  });

  it('writes the lines still waiting when the process exits', () => {
    const script = `
      const { createLogger } = require(${JSON.stringify(join(__dirname, '..', '..', 'server', 'logger.js'))});
      const logger = createLogger({ level: 'info', format: 'json' });
      logger.info('last words', { requestId: 'r-last' });
      process.exit(3);`;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(child.status).to.equal(3);
    expect(JSON.parse(child.stdout.trim())).to.include({ message: 'last words', requestId: 'r-last' });
  });
});
