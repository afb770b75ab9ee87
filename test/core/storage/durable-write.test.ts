import { expect } from 'chai';
import { constants, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeNewFileDurably } from '../../../core/storage/durable-write';

/** The open flags of the descriptor this process holds on `path`, from /proc (Linux). */
function openFlagsOf(path: string): number | undefined {
  for (const descriptor of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${descriptor}`);
    } catch {
      continue;
    }
    if (target !== path) continue;
    const flags = /flags:\s+([0-7]+)/.exec(readFileSync(`/proc/self/fdinfo/${descriptor}`, 'utf8'))?.[1];
    return flags === undefined ? undefined : parseInt(flags, 8);
  }
  return undefined;
}

describe('core/storage writeNewFileDurably', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'durable-write-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('writes every byte of a large buffer', async () => {
    const bytes = Buffer.alloc(5 * 1024 * 1024 + 17, 7);
    bytes[bytes.length - 1] = 9;
    await writeNewFileDurably(join(folder, 'big'), bytes, 0o600);
    expect(readFileSync(join(folder, 'big')).equals(bytes)).to.equal(true);
  });

  it('writes through a descriptor opened for synchronous data writes, and runs onCreated once the name exists', async function () {
    if (process.platform !== 'linux') this.skip();
    const path = join(folder, 'synced');
    let flags: number | undefined;
    let namesAtCreation: string[] = [];
    await writeNewFileDurably(path, Buffer.from('audio'), 0o600, {
      onCreated: async () => {
        namesAtCreation = readdirSync(folder);
        flags = openFlagsOf(path);
      },
    });
    expect(namesAtCreation).to.deep.equal(['synced']);
    expect(flags, 'the descriptor was open while onCreated ran').to.be.a('number');
    expect((flags ?? 0) & constants.O_DSYNC).to.equal(constants.O_DSYNC);
    expect(readFileSync(path, 'utf8')).to.equal('audio');
  });

  it('never replaces an existing file', async () => {
    const path = join(folder, 'taken');
    writeFileSync(path, 'first');
    const error = await writeNewFileDurably(path, Buffer.from('second'), 0o600).catch((caught: unknown) => caught);
    expect(error).to.have.property('code', 'EEXIST');
    expect(readFileSync(path, 'utf8')).to.equal('first');
  });

  it('removes the file when the folder work fails, and reports that failure', async () => {
    const error = await writeNewFileDurably(join(folder, 'lost'), Buffer.from('audio'), 0o600, {
      onCreated: async () => {
        throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      },
    }).catch((caught: unknown) => caught);
    expect(error).to.have.property('code', 'EIO');
    expect(readdirSync(folder)).to.deep.equal([]);
  });

  it('creates nothing when its signal aborted before it began', async () => {
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    const error = await writeNewFileDurably(join(folder, 'never'), Buffer.from('audio'), 0o600, { signal: controller.signal }).catch((caught: unknown) => caught);
    expect(error).to.have.property('message', 'deadline');
    expect(readdirSync(folder)).to.deep.equal([]);
  });

  it('removes what it created when its signal aborts once the file exists', async () => {
    const controller = new AbortController();
    const error = await writeNewFileDurably(join(folder, 'stopped'), Buffer.from('audio'), 0o600, {
      signal: controller.signal,
      onCreated: async () => controller.abort(new Error('client left')),
    }).catch((caught: unknown) => caught);
    expect(error).to.have.property('message', 'client left');
    expect(readdirSync(folder)).to.deep.equal([]);
  });
});
