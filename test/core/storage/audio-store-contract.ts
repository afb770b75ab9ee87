import { expect } from 'chai';
import type { Readable } from 'node:stream';
import { GatewayError, type AudioStore } from '../../../core';

export const HOUR = 3_600_000;

/** A fresh, empty store whose clock the test moves, and a way to plant files that are not its own. */
export interface AudioStoreUnderTest {
  readonly store: AudioStore;
  /** Puts a file the store did not make beside its own (`README.txt`). */
  addForeign(name: string): Promise<void>;
  hasForeign(name: string): Promise<boolean>;
  release(): Promise<void>;
}

/** Opens a store with this retention, reading the time from `now`. */
export type OpenAudioStore = (retentionMs: number, now: () => number) => Promise<AudioStoreUnderTest>;

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

const INVALID_NAMES = [
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

/** The AudioStore contract, run against the folder store and the S3 store. */
export function describeAudioStoreContract(name: string, open: OpenAudioStore): void {
  describe(`AudioStore contract: ${name}`, function () {
    let subject: AudioStoreUnderTest;
    let store: AudioStore;
    let offset = 0;
    const now = (): number => Date.now() + offset;
    beforeEach(async () => {
      offset = 0;
      subject = await open(HOUR, now);
      store = subject.store;
    });
    afterEach(() => subject.release());

    it('passes its write check without leaving a file that sweeping or downloads would see', async () => {
      await store.checkWritable();
      expect(await store.sweep()).to.equal(0);
    });

    it('saves under an unguessable name and serves the bytes back, whole and by range', async () => {
      const bytes = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));
      const saved = await store.save(bytes, 'mp3');
      expect(saved.fileName).to.match(/^[A-Za-z0-9_-]{32}\.mp3$/);
      expect(saved.size).to.equal(1000);
      const located = await store.locate(saved.fileName);
      expect(located).to.include({ size: 1000, extension: 'mp3', sampleRate: undefined });
      expect((await readAll(await located!.open())).equals(bytes)).to.equal(true);
      expect((await readAll(await located!.open({ start: 100, end: 199 }))).equals(bytes.subarray(100, 200))).to.equal(true);
      expect((await readAll(await located!.open({ start: 999, end: 999 }))).equals(bytes.subarray(999))).to.equal(true);
    });

    it('gives a located file an expiry one retention after it was stored', async () => {
      const before = Date.now();
      const saved = await store.save(new Uint8Array(7), 'opus');
      const located = await store.locate(saved.fileName);
      expect(located!.expiresAt.getTime() - located!.mtime.getTime()).to.be.closeTo(HOUR, 1);
      // S3 keeps LastModified to the second.
      expect(located!.mtime.getTime()).to.be.within(before - 1000, Date.now() + 1000);
    });

    it('keeps concurrent saves whole and distinct', async () => {
      const saves = await Promise.all(Array.from({ length: 12 }, (_, index) => store.save(Buffer.alloc(10_000, index), 'wav')));
      expect(new Set(saves.map((saved) => saved.fileName)).size).to.equal(12);
      for (const [index, saved] of saves.entries()) {
        const located = await store.locate(saved.fileName);
        expect((await readAll(await located!.open())).equals(Buffer.alloc(10_000, index))).to.equal(true);
      }
    });

    it('carries the sample rate of raw PCM in the name and refuses PCM without one', async () => {
      const saved = await store.save(new Uint8Array(4), 'pcm', { sampleRate: 24_000 });
      expect(saved.fileName).to.match(/^[A-Za-z0-9_-]{32}\.24000\.pcm$/);
      expect(await store.locate(saved.fileName)).to.include({ extension: 'pcm', sampleRate: 24_000, size: 4 });
      for (const attempt of [store.save(new Uint8Array(4), 'pcm'), store.save(new Uint8Array(4), '../mp3')]) {
        expect(await attempt.catch((error: unknown) => error)).to.be.instanceOf(GatewayError);
      }
    });

    it('returns undefined for a well-formed name that does not exist', async () => {
      expect(await store.locate(`${'A'.repeat(32)}.mp3`)).to.equal(undefined);
    });

    it('rejects names it could not have produced with a 404', async () => {
      for (const attempt of INVALID_NAMES) {
        const error = await store.locate(attempt).then(
          () => expect.fail(`accepted ${JSON.stringify(attempt)}`),
          (failure: unknown) => failure,
        );
        expect(error).to.be.instanceOf(GatewayError);
        expect((error as GatewayError).code).to.equal('TTS_ERR_NOT_FOUND');
      }
    });

    it('does not serve a file past its retention', async () => {
      const saved = await store.save(new Uint8Array(3), 'mp3');
      offset = HOUR + 2000;
      expect(await store.locate(saved.fileName)).to.equal(undefined);
      offset = 0;
      expect(await store.locate(saved.fileName)).to.not.equal(undefined);
    });

    it('answers 404 from open() when the file went away after locate()', async () => {
      const saved = await store.save(new Uint8Array(3), 'mp3');
      const located = await store.locate(saved.fileName);
      offset = HOUR + 2000;
      expect(await store.sweep()).to.equal(1);
      const error = await located!.open().catch((failure: unknown) => failure);
      expect((error as GatewayError).code).to.equal('TTS_ERR_NOT_FOUND');
    });

    it('sweeps expired files only, and leaves foreign ones alone', async () => {
      const first = await store.save(new Uint8Array(3), 'wav');
      const second = await store.save(new Uint8Array(3), 'pcm', { sampleRate: 16_000 });
      await subject.addForeign('README.txt');
      expect(await store.sweep()).to.equal(0);
      expect(await store.locate(first.fileName)).to.not.equal(undefined);
      offset = HOUR + 2000;
      expect(await store.sweep()).to.equal(2);
      offset = 0;
      expect(await store.locate(first.fileName)).to.equal(undefined);
      expect(await store.locate(second.fileName)).to.equal(undefined);
      expect(await subject.hasForeign('README.txt')).to.equal(true);
      expect(await store.sweep()).to.equal(0);
    });

    it('runs the sweeper in the background until stopped', async () => {
      const old = await store.save(new Uint8Array(3), 'mp3');
      offset = HOUR + 2000;
      const stop = store.startSweeper(5);
      try {
        let swept = false;
        for (let attempt = 0; attempt < 400 && !swept; attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          offset = 0;
          swept = (await store.locate(old.fileName)) === undefined;
          offset = HOUR + 2000;
        }
        expect(swept).to.equal(true);
      } finally {
        stop();
      }
    });
  });
}
