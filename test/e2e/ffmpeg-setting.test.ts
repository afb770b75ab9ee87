import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { sniffAudioFormat } from '../../core';
import { startTestGateway } from './gateway-harness';

/** `audio.ffmpegPath` decides whether, and with which binary, the embedded engine's speech is made aac. */
describe('e2e: the audio.ffmpegPath setting', function () {
  this.timeout(60_000);
  let folder: string;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'tts-gateway-ffmpeg-'));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  /** One aac synthesis on a fresh gateway, and the bytes behind its link. */
  async function synthesizeAac(ffmpegPath: string | undefined): Promise<{ response: request.Response; audio?: Uint8Array }> {
    const harness = await startTestGateway((config) => ({ ...config, audio: ffmpegPath === undefined ? {} : { ffmpegPath } }));
    try {
      const registered = await request(harness.gateway.app).post('/api/v1/auth/register').send({ email: 'aac@example.com', password: 'correct horse battery' });
      const response = await request(harness.gateway.app)
        .post('/api/v1/common/tts-sync')
        .set('X-API-Key', registered.body.data.apiKey as string)
        .send({ model: 'espeak-ng', voice: 'en-us', text: 'Hello in aac.', format: 'aac' });
      if (response.status !== 200) return { response };
      const download = await request(harness.gateway.app)
        .get(new URL(response.body.data.audio_url as string).pathname)
        .buffer(true)
        .parse((answer, done) => {
          const parts: Buffer[] = [];
          answer.on('data', (part: Buffer) => parts.push(part));
          answer.on('end', () => done(null, Buffer.concat(parts)));
        });
      return { response, audio: new Uint8Array(download.body as Buffer) };
    } finally {
      await harness.dispose();
    }
  }

  it('refuses aac with a 400 naming the setting when the configured binary does not exist, ffmpeg on PATH notwithstanding', async () => {
    const { response } = await synthesizeAac(join(folder, 'missing-ffmpeg'));
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    expect(response.body.success).to.equal(false);
    expect(response.body.error.code).to.equal('TTS_ERR_VALIDATION');
    expect(response.body.message).to.contain('audio.ffmpegPath');
    expect(response.body.error.details).to.deep.equal([{ field: 'format', reason: 'ffmpeg_missing' }]);
  });

  it('runs the configured binary, for the probe and for the audio', async () => {
    // ffmpeg behind a script that notes each run: what runs is the setting's binary, not PATH's.
    const calls = join(folder, 'calls.txt');
    const wrapper = join(folder, 'noting-ffmpeg');
    writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${calls}'\nexec ffmpeg "$@"\n`);
    chmodSync(wrapper, 0o755);
    const { response, audio } = await synthesizeAac(wrapper);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(audio && sniffAudioFormat(audio)).to.equal('aac');
    expect(audio?.byteLength).to.equal(response.body.data.file_size);
    const runs = readFileSync(calls, 'utf8').trim().split('\n');
    expect(runs.some((run) => run.includes('-version')), runs.join(' | ')).to.equal(true);
    expect(runs.some((run) => run.includes('adts')), runs.join(' | ')).to.equal(true);
  });
});
