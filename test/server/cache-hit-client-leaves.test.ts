import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import { CachedSynthesis, GatewayError, ResultCache, S3AudioStore, type SynthesisRequest, type SynthesisResult, type Synthesizer } from '../../core';
import { cacheStorage } from '../../server/gateway-adapters';
import { appliedPlan } from '../support/applied-plan';
import { eventually } from '../support/eventually';
import { QUIET_LOGGER } from '../support/quiet-logger';
import { FaultyS3Proxy } from '../support/servers/faulty-s3-proxy';
import { S3RVER_CREDENTIALS, S3Server } from '../support/servers/s3-server';

const BUCKET = 'tts-audio-client-leaves';
const HOUR = 3_600_000;

describe('server cacheStorage on S3: a client that leaves during a hit whose read stalls', function () {
  this.timeout(20_000);
  let s3: S3Server;
  let proxy: FaultyS3Proxy;
  let client: S3Client;
  before(async () => {
    s3 = await S3Server.start([BUCKET]);
    proxy = await FaultyS3Proxy.start(s3.port);
    client = new S3Client({ endpoint: proxy.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  });
  after(async () => {
    client.destroy();
    await proxy.close();
    await s3.stop();
  });

  it('stops the read: the call rejects at once with the cancellation, no provider is called, and the held S3 request is closed', async () => {
    const store = new S3AudioStore({ client, bucket: BUCKET, prefix: `${randomUUID()}/`, retentionMs: HOUR });
    const calls: SynthesisRequest[] = [];
    const synthesizer: Synthesizer = {
      synthesize: async (synthesisRequest) => {
        calls.push(synthesisRequest);
        const saved = await store.save(Buffer.from('stored audio'), 'mp3');
        return { ...saved, format: 'mp3', applied: appliedPlan(), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false } satisfies SynthesisResult;
      },
      stream: () => Promise.reject(new Error('not used')),
    };
    const cached = new CachedSynthesis(synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: HOUR }), cacheStorage(store, { recordOwners: false }), QUIET_LOGGER, { maxStreamBytes: 1000 });
    const asked: SynthesisRequest = { model: 'm', voice: 'v', text: 'Asked twice.', speed: 1, pitch: 1, volume: 1, format: 'mp3' };
    expect((await cached.synthesize(asked, { requestId: 'first' })).cache).to.equal('miss');

    proxy.reads = 'stall';
    const leaving = new AbortController();
    const answer = cached.synthesize(asked, { requestId: 'leaves', signal: leaving.signal }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await eventually(() => void expect(proxy.readsFaulted).to.equal(1), 300);
    const gone = new GatewayError('TTS_ERR_CANCELLED', 'The request (the client went away) was cancelled');
    leaving.abort(gone);
    // Without the fix the read is held for ever: 3 s only bounds the test.
    const outcome = await Promise.race([answer, new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3000).unref())]);
    expect(outcome).to.equal(gone);
    expect(calls).to.have.length(1);
    await eventually(() => void expect(proxy.stalledReadsClosed).to.equal(1), 200);
  });
});
