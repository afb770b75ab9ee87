import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { expect } from 'chai';
import { S3AudioStore } from '../../../core';
import { S3Server } from '../../support/servers/s3-server';
import { HOUR } from './audio-store-contract';

const BUCKET = 'tts-audio-probe-leftover';
const PREFIX = 'audio/';

/**
 * The readiness check puts a small object and deletes it. A delete that failed (S3 answering 500
 * after the put, a process stopped between the two, a DeleteObjects whose quiet answer lists the
 * key as refused) left that object for good: the sweeper took only audio names. It now takes
 * probes past the retention too, as the folder store sweeps its own `.tmp-` probes.
 */
describe('core/storage S3AudioStore: a readiness probe left behind (s3rver)', () => {
  let server: S3Server;
  let client: S3Client;
  before(async () => {
    server = await S3Server.start([BUCKET]);
    client = server.client();
  });
  after(async () => {
    client.destroy();
    await server.stop();
  });

  const exists = (key: string): Promise<boolean> =>
    client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(
      () => true,
      () => false,
    );

  it('is swept once past the retention; objects that are not the store own stay', async () => {
    let clock = Date.now();
    const store = new S3AudioStore({ client, bucket: BUCKET, prefix: PREFIX, retentionMs: HOUR, now: () => clock });
    const leftover = `${PREFIX}.probe-0123456789ab`;
    const foreign = `${PREFIX}.probe-notes.txt`;
    for (const key of [leftover, foreign]) await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'ok' }));
    await store.sweep();
    expect(await exists(leftover), 'a probe within the retention stays').to.equal(true);
    clock += HOUR + 60_000;
    await store.sweep();
    expect(await exists(leftover), 'an expired probe').to.equal(false);
    expect(await exists(foreign), 'a foreign object').to.equal(true);
  });
});
