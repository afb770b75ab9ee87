import { DeleteObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { S3AudioStore } from '../../../core';
import { S3Server } from '../../support/servers/s3-server';
import { describeAudioStoreContract, HOUR, readAll } from './audio-store-contract';

const BUCKET = 'tts-audio-test';

describe('core/storage S3AudioStore (s3rver)', () => {
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

  // Each store gets its own prefix in the one bucket, so that runs do not see each other's files.
  describeAudioStoreContract('S3AudioStore', async (retentionMs, now) => {
    const prefix = `${randomUUID()}/`;
    const keyOf = (name: string): string => `${prefix}${name}`;
    return {
      store: new S3AudioStore({ client, bucket: BUCKET, prefix, retentionMs, now }),
      addForeign: async (name) => void (await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: keyOf(name), Body: 'not ours' }))),
      hasForeign: async (name) =>
        client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: keyOf(name) })).then(
          () => true,
          () => false,
        ),
      release: async () => {
        const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
        for (const object of listed.Contents ?? []) await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: object.Key }));
      },
    };
  });

  it('uploads a large file in parts and serves it back intact', async () => {
    const prefix = `${randomUUID()}/`;
    const store = new S3AudioStore({ client, bucket: BUCKET, prefix, retentionMs: HOUR, multipartThreshold: 6 * 1024 * 1024, partSize: 5 * 1024 * 1024 });
    const bytes = Buffer.alloc(11 * 1024 * 1024);
    for (let index = 0; index < bytes.length; index += 4096) bytes[index] = (index / 4096) % 256;
    const saved = await store.save(bytes, 'wav');
    const located = await store.locate(saved.fileName);
    expect(located?.size).to.equal(bytes.length);
    expect((await readAll(await located!.open())).equals(bytes)).to.equal(true);
    const tail = await readAll(await located!.open({ start: bytes.length - 5000, end: bytes.length - 1 }));
    expect(tail.equals(bytes.subarray(bytes.length - 5000))).to.equal(true);
  });

  it('keeps files under its prefix only', async () => {
    const prefix = `${randomUUID()}/`;
    const store = new S3AudioStore({ client, bucket: BUCKET, prefix, retentionMs: HOUR });
    const saved = await store.save(new Uint8Array(3), 'mp3');
    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    expect(listed.Contents?.map((object) => object.Key)).to.deep.equal([`${prefix}${saved.fileName}`]);
  });

  it('reports a store failure as an error, not as a missing file', async () => {
    const store = new S3AudioStore({ client, bucket: 'no-such-bucket', retentionMs: HOUR });
    const error = await store.save(new Uint8Array(3), 'mp3').catch((failure: unknown) => failure);
    // The store is unavailable (503, worth a retry), not a bug of the gateway (500); S3's own message (the bucket) stays the cause.
    expect(error).to.include({ code: 'TTS_ERR_UNAVAILABLE', status: 503 });
    expect((error as Error).message).to.equal("The gateway's audio storage is unavailable: S3 answered NoSuchBucket (HTTP 404)");
    expect(await store.locate(`${'A'.repeat(32)}.mp3`).catch((failure: unknown) => failure)).to.satisfy((answer: unknown) => answer === undefined || answer instanceof Error);
  });

  /**
   * The readiness check puts a small object and deletes it. A delete that failed (S3 answering 500
   * after the put, a process stopped between the two, a DeleteObjects whose quiet answer lists the
   * key as refused) left that object for good: the sweeper took only audio names. It now takes
   * probes past the retention too, as the folder store sweeps its own `.tmp-` probes.
   */
  it('sweeps a readiness probe left behind once past the retention; objects that are not the store own stay', async () => {
    const prefix = `${randomUUID()}/`;
    const exists = (key: string): Promise<boolean> =>
      client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(
        () => true,
        () => false,
      );
    let clock = Date.now();
    const store = new S3AudioStore({ client, bucket: BUCKET, prefix, retentionMs: HOUR, now: () => clock });
    const leftover = `${prefix}.probe-0123456789ab`;
    const foreign = `${prefix}.probe-notes.txt`;
    for (const key of [leftover, foreign]) await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'ok' }));
    await store.sweep();
    expect(await exists(leftover), 'a probe within the retention stays').to.equal(true);
    clock += HOUR + 60_000;
    await store.sweep();
    expect(await exists(leftover), 'an expired probe').to.equal(false);
    expect(await exists(foreign), 'a foreign object').to.equal(true);
  });
});
