import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaveThread } from '../../../core/storage/save-thread/save-thread';

describe('core/storage SaveThread', () => {
  let folder: string;
  let thread: SaveThread;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'save-thread-'));
    thread = new SaveThread();
  });
  afterEach(async () => {
    await thread.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('writes every file of many concurrent saves whole, with its mode', async () => {
    const files = Array.from({ length: 24 }, (_, index) => ({ path: join(folder, `file-${index}`), bytes: Buffer.alloc(1000 + index * 997, index) }));
    await Promise.all(files.map((file) => thread.write(file.path, file.bytes, 0o600)));
    for (const file of files) {
      expect(readFileSync(file.path).equals(file.bytes)).to.equal(true);
      expect(statSync(file.path).mode & 0o777).to.equal(0o600);
    }
    expect(readdirSync(folder)).to.have.length(24);
  });

  it('fails one save of a batch with its file system error and keeps the others', async () => {
    writeFileSync(join(folder, 'taken'), 'first');
    const results = await Promise.allSettled([
      thread.write(join(folder, 'a'), Buffer.from('a'), 0o600),
      thread.write(join(folder, 'taken'), Buffer.from('second'), 0o600),
      thread.write(join(folder, 'missing-folder', 'b'), Buffer.from('b'), 0o600),
      thread.write(join(folder, 'c'), Buffer.from('c'), 0o600),
    ]);
    expect(results.map((result) => result.status)).to.deep.equal(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).to.include({ code: 'EEXIST', syscall: 'open' });
    expect((results[2] as PromiseRejectedResult).reason).to.include({ code: 'ENOENT', syscall: 'open' });
    expect(readFileSync(join(folder, 'taken'), 'utf8')).to.equal('first');
    expect(readdirSync(folder).sort()).to.deep.equal(['a', 'c', 'taken']);
  });

  it('flushes a folder asked alone, in the batch of the saves made with it, and fails a flush of a folder that is gone', async () => {
    const results = await Promise.allSettled([
      thread.write(join(folder, 'a'), Buffer.from('a'), 0o600),
      thread.flushFolder(folder),
      thread.flushFolder(join(folder, 'missing-folder')),
    ]);
    expect(results.map((result) => result.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected']);
    expect((results[2] as PromiseRejectedResult).reason).to.include({ code: 'ENOENT' });
    await thread.flushFolder(folder);
    expect(readdirSync(folder)).to.deep.equal(['a']);
  });

  it('creates nothing for a save whose signal aborted before it began', async () => {
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    const error = await thread.write(join(folder, 'never'), Buffer.from('x'), 0o600, controller.signal).catch((caught: unknown) => caught);
    expect(error).to.have.property('message', 'deadline');
    expect(readdirSync(folder)).to.deep.equal([]);
  });

  it('removes a file whose signal aborted while it was being saved', async () => {
    const controller = new AbortController();
    const saving = thread.write(join(folder, 'stopped'), Buffer.alloc(50_000, 1), 0o600, controller.signal);
    controller.abort(new Error('client left'));
    const error = await saving.catch((caught: unknown) => caught);
    expect(error).to.have.property('message', 'client left');
    expect(readdirSync(folder)).to.deep.equal([]);
  });

  it('fails the saves pending when the thread stops, and starts a new thread for the next save', async () => {
    const path = join(folder, 'interrupted');
    const saving = thread.write(path, Buffer.alloc(10_000, 1), 0o600);
    await thread.close();
    const error = await saving.catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(Error);
    expect(existsSync(path)).to.equal(false);
    await thread.write(join(folder, 'after'), Buffer.from('fine'), 0o600);
    expect(readFileSync(join(folder, 'after'), 'utf8')).to.equal('fine');
  });
});
