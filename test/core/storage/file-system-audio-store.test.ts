import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemAudioStore, GatewayError } from '../../../core';

const HOUR = 3_600_000;

describe('core/storage FileSystemAudioStore', () => {
  let root: string;
  let directory: string;
  let store: FileSystemAudioStore;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'audio-store-'));
    directory = join(root, 'audio');
    store = new FileSystemAudioStore(directory, HOUR);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const ageFile = (fileName: string, ageMs: number): void => {
    const when = new Date(Date.now() - ageMs);
    utimesSync(join(directory, fileName), when, when);
  };

  it('saves under an unguessable name, creating the folder, with no temporary file left', async () => {
    const bytes = new Uint8Array([1, 2, 3, 4, 5]);
    const saved = await store.save(bytes, 'mp3');
    expect(saved.fileName).to.match(/^[A-Za-z0-9_-]{32}\.mp3$/);
    expect(saved.size).to.equal(5);
    expect([...readFileSync(join(directory, saved.fileName))]).to.deep.equal([1, 2, 3, 4, 5]);
    expect(readdirSync(directory)).to.deep.equal([saved.fileName]);
  });

  it('keeps concurrent saves whole and distinct', async () => {
    const saves = await Promise.all(Array.from({ length: 20 }, (_, index) => store.save(Buffer.alloc(10_000, index), 'wav')));
    expect(new Set(saves.map((saved) => saved.fileName)).size).to.equal(20);
    saves.forEach((saved, index) => expect(readFileSync(join(directory, saved.fileName)).equals(Buffer.alloc(10_000, index))).to.equal(true));
    expect(readdirSync(directory).filter((name) => name.startsWith('.'))).to.deep.equal([]);
  });

  it('carries the sample rate of raw PCM in the name', async () => {
    const saved = await store.save(new Uint8Array(4), 'pcm', { sampleRate: 24_000 });
    expect(saved.fileName).to.match(/^[A-Za-z0-9_-]{32}\.24000\.pcm$/);
    const located = await store.locate(saved.fileName);
    expect(located).to.include({ extension: 'pcm', sampleRate: 24_000, size: 4 });
    const withoutRate = await store.save(new Uint8Array(4), 'pcm').catch((error: unknown) => error);
    expect(withoutRate).to.be.instanceOf(GatewayError);
  });

  it('locates a saved file with its size and expiry', async () => {
    const saved = await store.save(new Uint8Array(7), 'opus');
    const located = await store.locate(saved.fileName);
    expect(located?.path).to.equal(join(directory, saved.fileName));
    expect(located?.size).to.equal(7);
    expect(located?.extension).to.equal('opus');
    expect(located?.sampleRate).to.equal(undefined);
    expect(located!.expiresAt.getTime() - located!.mtime.getTime()).to.be.closeTo(HOUR, 1);
  });

  it('returns undefined for a well-formed name that does not exist', async () => {
    expect(await store.locate(`${'A'.repeat(32)}.mp3`)).to.equal(undefined);
  });

  it('rejects names it could not have produced with a 404, without touching the filesystem', async () => {
    // A file that would be reachable through traversal must stay unreachable.
    mkdirSync(join(root, 'outside'));
    writeFileSync(join(root, 'outside', `${'B'.repeat(32)}.mp3`), 'secret');
    const attempts = [
      `../outside/${'B'.repeat(32)}.mp3`,
      '..%2F..%2Fetc%2Fpasswd',
      '../../etc/passwd',
      `${'A'.repeat(32)}.mp3\0`,
      `sub/${'A'.repeat(32)}.mp3`,
      `${'A'.repeat(32)}`,
      `${'A'.repeat(31)}.mp3`,
      `${'A'.repeat(32)}.MP3`,
      `${'A'.repeat(32)}.24000.mp3`,
      `${'A'.repeat(32)}.pcm`,
      '',
      '.',
    ];
    for (const attempt of attempts) {
      try {
        await store.locate(attempt);
        expect.fail(`accepted ${JSON.stringify(attempt)}`);
      } catch (error) {
        expect(error).to.be.instanceOf(GatewayError);
        expect((error as GatewayError).code).to.equal('TTS_ERR_NOT_FOUND');
      }
    }
  });

  it('does not serve expired files', async () => {
    const saved = await store.save(new Uint8Array(3), 'mp3');
    const later = new FileSystemAudioStore(directory, HOUR, { now: () => Date.now() + HOUR + 1000 });
    expect(await later.locate(saved.fileName)).to.equal(undefined);
    expect(await store.locate(saved.fileName)).to.not.equal(undefined);
  });

  it('sweeps expired files and stale temporaries, and leaves the rest alone', async () => {
    const fresh = await store.save(new Uint8Array(3), 'mp3');
    const old = await store.save(new Uint8Array(3), 'wav');
    writeFileSync(join(directory, '.tmp-abandoned'), 'partial');
    writeFileSync(join(directory, 'README.txt'), 'not ours');
    ageFile(old.fileName, 2 * HOUR);
    ageFile('.tmp-abandoned', 2 * HOUR);
    ageFile('README.txt', 2 * HOUR);
    expect(await store.sweep()).to.equal(2);
    expect(readdirSync(directory).sort()).to.deep.equal([fresh.fileName, 'README.txt'].sort());
  });

  it('sweeps nothing (and does not fail) before the folder exists', async () => {
    expect(await store.sweep()).to.equal(0);
  });

  it('runs the sweeper in the background until stopped', async () => {
    const old = await store.save(new Uint8Array(3), 'mp3');
    ageFile(old.fileName, 2 * HOUR);
    const stop = store.startSweeper(5);
    try {
      for (let attempt = 0; attempt < 400 && existsSync(join(directory, old.fileName)); attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(existsSync(join(directory, old.fileName))).to.equal(false);
    } finally {
      stop();
    }
  });
});
