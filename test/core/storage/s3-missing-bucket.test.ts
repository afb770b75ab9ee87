import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { expect } from 'chai';
import { S3AudioStore, type GatewayError } from '../../../core';
import { S3Server } from '../../support/servers/s3-server';
import { HOUR } from './audio-store-contract';

const BUCKET = 'tts-audio-bucket-check';

const failureOf = (promise: Promise<unknown>): Promise<unknown> => promise.then((value) => value, (error: unknown) => error);

/**
 * A bucket that is gone (deleted, misnamed) is an outage, not a store whose every file is gone:
 * downloads answer 503, and the result cache, which drops an entry only for a file gone, keeps
 * its entries. A HEAD's 404 has no body, so the store asks S3 about the bucket on such a miss.
 */
describe('core/storage S3AudioStore: a missing bucket (s3rver)', () => {
  let server: S3Server;
  let client: S3Client;
  let clock: number;
  let store: S3AudioStore;
  before(async () => {
    server = await S3Server.start([]);
    client = server.client();
  });
  after(async () => {
    client.destroy();
    await server.stop();
  });
  beforeEach(async () => {
    clock = Date.now();
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
    store = new S3AudioStore({ client, bucket: BUCKET, retentionMs: HOUR, now: () => clock });
  });
  afterEach(async () => {
    await client.send(new DeleteBucketCommand({ Bucket: BUCKET })).catch(() => undefined);
  });

  it('a located file whose bucket was deleted answers its GET with 503 TTS_ERR_UNAVAILABLE, not 404', async () => {
    const saved = await store.save(Buffer.from('stored audio'), 'mp3');
    const located = await store.locate(saved.fileName);
    await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: saved.fileName }));
    await client.send(new DeleteBucketCommand({ Bucket: BUCKET }));
    const failure = (await failureOf(located!.open())) as GatewayError;
    expect(failure).to.include({ code: 'TTS_ERR_UNAVAILABLE', status: 503 });
    expect(failure.message).to.include('NoSuchBucket').and.not.include(BUCKET);
  });

  it('locate in a missing bucket rejects with 503 (the cache keeps its entry); a missing file in a bucket that exists is none; a bucket made again is seen within seconds', async () => {
    const saved = await store.save(Buffer.from('stored audio'), 'mp3');
    await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: saved.fileName }));
    expect(await store.locate(saved.fileName)).to.equal(undefined);
    // The bucket's answer ("exists") stands a few seconds; past them, S3 is asked again.
    await client.send(new DeleteBucketCommand({ Bucket: BUCKET }));
    clock += 6_000;
    const failure = (await failureOf(store.locate(saved.fileName))) as GatewayError;
    expect(failure).to.include({ code: 'TTS_ERR_UNAVAILABLE', status: 503 });
    expect(failure.message).to.include('NoSuchBucket').and.not.include(BUCKET);
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
    clock += 6_000;
    expect(await store.locate(saved.fileName)).to.equal(undefined);
  });

  it('readiness fails: the write check of a missing bucket rejects', async () => {
    await client.send(new DeleteBucketCommand({ Bucket: BUCKET }));
    expect(await failureOf(store.checkWritable())).to.have.property('name', 'NoSuchBucket');
  });
});
