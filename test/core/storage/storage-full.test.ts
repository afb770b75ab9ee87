import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemAudioStore, GatewayError } from '../../../core';

const HOUR = 3_600_000;
const isRoot = process.getuid?.() === 0;

/** A folder with 1 MiB of room (tmpfs, as root), or else one the gateway may not write. */
interface ConstrainedFolder {
  readonly path: string;
  /** What a save into it should be refused for. */
  readonly expectedReason: 'disk_full' | 'not_writable';
  /** Takes up (nearly) all its room, or makes it read-only. */
  constrain(): void;
  /** Leaves no room even for a new folder entry (every inode taken), or makes it read-only. */
  constrainEntries(): void;
  /** Gives the room back, or makes it writable again. */
  relieve(): void;
  release(): void;
}

function constrainedFolder(): ConstrainedFolder {
  const root = mkdtempSync(join(tmpdir(), 'storage-full-'));
  const path = join(root, 'audio');
  mkdirSync(path);
  if (isRoot) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,nr_inodes=64', 'tmpfs', path]);
    const filler = join(path, 'filler');
    const entries: string[] = [];
    return {
      path,
      expectedReason: 'disk_full',
      constrain: () => {
        // Everything but a few KiB: small metadata still fits, a 600 KiB file does not.
        writeFileSync(filler, Buffer.alloc(1024 * 1024 - 64 * 1024));
      },
      constrainEntries: () => {
        for (let index = 0; ; index += 1) {
          const entry = join(path, `entry-${index}`);
          try {
            writeFileSync(entry, '');
          } catch {
            return;
          }
          entries.push(entry);
        }
      },
      relieve: () => {
        rmSync(filler, { force: true });
        for (const entry of entries.splice(0)) rmSync(entry, { force: true });
      },
      release: () => {
        // Lazy: the store may still hold the folder open for its flush; the mount goes once it closes.
        execFileSync('umount', ['-l', path]);
        rmSync(root, { recursive: true, force: true });
      },
    };
  }
  return {
    path,
    expectedReason: 'not_writable',
    constrain: () => chmodSync(path, 0o555),
    constrainEntries: () => chmodSync(path, 0o555),
    relieve: () => chmodSync(path, 0o755),
    release: () => {
      chmodSync(path, 0o755);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => expect.fail('expected the save to fail'),
    (caught: unknown) => caught,
  );
  expect(error).to.be.instanceOf(GatewayError);
  return error as GatewayError;
}

describe(`core/storage FileSystemAudioStore on a ${isRoot ? 'full 1 MiB tmpfs' : 'read-only folder'}`, function () {
  this.timeout(20_000);
  let folder: ConstrainedFolder;
  let store: FileSystemAudioStore;
  beforeEach(() => {
    folder = constrainedFolder();
    store = new FileSystemAudioStore(folder.path, HOUR);
  });
  afterEach(() => folder.release());

  const audioFiles = () => readdirSync(folder.path).filter((name) => name !== 'filler' && !name.startsWith('entry-'));

  it('answers 507 TTS_ERR_STORAGE_FULL, leaves no temporary file, and works again once there is room', async () => {
    folder.constrain();
    const error = await refusal(store.save(Buffer.alloc(600 * 1024, 1), 'wav'));
    expect(error.code).to.equal('TTS_ERR_STORAGE_FULL');
    expect(error.status).to.equal(507);
    expect(error.details[0]).to.include({ reason: folder.expectedReason });
    expect(error.message).to.match(/^The gateway's audio storage has no room for this audio: /);
    expect(audioFiles()).to.deep.equal([]);
    // Still full: refused again, still nothing left over.
    await refusal(store.save(Buffer.alloc(600 * 1024, 2), 'wav'));
    expect(audioFiles()).to.deep.equal([]);
    folder.relieve();
    const saved = await store.save(Buffer.alloc(600 * 1024, 3), 'wav');
    expect(audioFiles()).to.deep.equal([saved.fileName]);
    expect((await store.locate(saved.fileName))?.size).to.equal(600 * 1024);
  });

  it('recovers when its folder could not even be made at the first save', async () => {
    const nested = new FileSystemAudioStore(join(folder.path, 'nested', 'audio'), HOUR);
    folder.constrainEntries();
    const error = await refusal(nested.save(Buffer.alloc(1000), 'mp3'));
    expect(error.code).to.equal('TTS_ERR_STORAGE_FULL');
    expect(readdirSync(folder.path)).to.not.include('nested');
    folder.relieve();
    const saved = await nested.save(Buffer.alloc(1000), 'mp3');
    expect(await nested.locate(saved.fileName)).to.not.equal(undefined);
  });
});

describe('core/storage FileSystemAudioStore: a stopped save', () => {
  it('leaves nothing behind when its signal aborts', async () => {
    const root = mkdtempSync(join(tmpdir(), 'storage-abort-'));
    try {
      const store = new FileSystemAudioStore(root, HOUR);
      const controller = new AbortController();
      controller.abort(new Error('deadline'));
      const error = await store.save(Buffer.alloc(1000), 'wav', { signal: controller.signal }).catch((caught: unknown) => caught);
      expect(error).to.have.property('message', 'deadline');
      expect(readdirSync(root)).to.deep.equal([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
