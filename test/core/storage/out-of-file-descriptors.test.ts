import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real EMFILE: a child process whose `ulimit -n` is low takes every descriptor it has left,
 * then saves and opens with the folder store (its save thread started before, as in a running
 * gateway). Node cannot lower its own limit, hence the child.
 */
const CHILD = `
const { openSync, closeSync } = require('node:fs');
const { FileSystemAudioStore } = require(process.env.CORE_PATH);
const outcome = (promise) => promise.then(() => ({ ok: true }), (error) => ({ code: error.code, status: error.status, message: error.message, details: error.details, retryAfterSeconds: error.retryAfterSeconds }));
(async () => {
  const store = new FileSystemAudioStore(process.env.AUDIO_DIR, 3600000);
  const saved = await store.save(Buffer.from('stored audio'), 'mp3');
  const located = await store.locate(saved.fileName);
  const held = [];
  for (;;) {
    try { held.push(openSync('/dev/null', 'r')); } catch (error) { if (error.code === 'EMFILE') break; throw error; }
  }
  const save = await outcome(store.save(Buffer.from('more audio'), 'mp3'));
  const download = await outcome(located.open());
  for (const descriptor of held) closeSync(descriptor);
  const saveAfter = await outcome(store.save(Buffer.from('more audio'), 'mp3'));
  process.stdout.write(JSON.stringify({ save, download, saveAfter }));
  process.exit(0);
})().catch((error) => { process.stderr.write(String(error && error.stack)); process.exit(1); });
`;

interface Outcome {
  readonly ok?: boolean;
  readonly code?: string;
  readonly status?: number;
  readonly message?: string;
  readonly details?: readonly { reason: string }[];
  readonly retryAfterSeconds?: number;
}

function runWithFewDescriptors(audioDirectory: string): Promise<{ save: Outcome; download: Outcome; saveAfter: Outcome }> {
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', 'ulimit -n 64 && exec "$0" -e "$CHILD_SCRIPT"', process.execPath], {
      env: { ...process.env, CHILD_SCRIPT: CHILD, CORE_PATH: join(__dirname, '../../../core'), AUDIO_DIR: audioDirectory },
    }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout))));
  });
}

describe('core/storage FileSystemAudioStore: no file descriptor left is an outage (503), not a bug (500)', function () {
  this.timeout(20_000);
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'out-of-descriptors-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a save and a download under EMFILE reject with 503 TTS_ERR_UNAVAILABLE, Retry-After and the code named; the store saves again once descriptors are free', async () => {
    const { save, download, saveAfter } = await runWithFewDescriptors(join(root, 'audio'));
    for (const failure of [save, download]) {
      expect(failure).to.include({ code: 'TTS_ERR_UNAVAILABLE', status: 503, retryAfterSeconds: 1 });
      expect(failure.details).to.deep.equal([{ reason: 'out_of_file_descriptors' }]);
      expect(failure.message).to.include('EMFILE').and.not.include(root);
    }
    expect(saveAfter).to.deep.equal({ ok: true });
  });
});
