import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../config';
import { rejection, TempDirectory } from './config-test-helpers';

const SCALE_OUT = `
database:
  url: postgres://gateway:\${PGPASSWORD}@db:5432/gateway
storage:
  driver: s3
  s3:
    bucket: tts-audio
    endpoint: http://minio:9000
    region: us-east-1
    forcePathStyle: true
    accessKeyId: \${S3_ACCESS_KEY_ID}
    secretAccessKey: \${S3_SECRET_ACCESS_KEY}
redis:
  url: redis://redis:6379
`;

describe('config: scale-out settings (PostgreSQL, S3, Redis)', () => {
  let directory: TempDirectory;
  beforeEach(() => (directory = new TempDirectory()));
  afterEach(() => directory.remove());

  const load = (yaml: string, env: Record<string, string> = {}) => loadConfig({ argv: ['--config', directory.write('gateway.yaml', yaml)], env, cwd: directory.path });

  it('reads the replica example: postgres URL, S3 bucket with keys, Redis', async () => {
    const config = await load(SCALE_OUT, { PGPASSWORD: 'pw', S3_ACCESS_KEY_ID: 'AKID', S3_SECRET_ACCESS_KEY: 'SECRET' });
    expect(config.database.url).to.equal('postgres://gateway:pw@db:5432/gateway');
    expect(config.storage.driver).to.equal('s3');
    expect(config.storage.s3).to.deep.equal({
      bucket: 'tts-audio',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      prefix: '',
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'SECRET' },
      connectionTimeoutMs: 5_000,
      requestTimeoutMs: 30_000,
    });
    expect(config.redis).to.deep.equal({ url: 'redis://redis:6379', keyPrefix: 'ttsg:' });
  });

  it('leaves credentials to the AWS chain when no keys are given, and takes postgresql://', async () => {
    const config = await load('database:\n  url: postgresql://db/gateway\nstorage:\n  driver: s3\n  s3:\n    bucket: tts-audio\n');
    expect(config.storage.s3).to.deep.equal({ bucket: 'tts-audio', forcePathStyle: false, prefix: '', connectionTimeoutMs: 5_000, requestTimeoutMs: 30_000 });
    expect(config.redis).to.equal(undefined);
  });

  it("takes the S3 client's time limits, and refuses a zero one", async () => {
    const config = await load('storage:\n  driver: s3\n  s3:\n    bucket: tts-audio\n    connectionTimeout: 2s\n    requestTimeout: 1m\n');
    expect(config.storage.s3).to.include({ connectionTimeoutMs: 2_000, requestTimeoutMs: 60_000 });
    const zero = (await rejection(load('storage:\n  driver: s3\n  s3:\n    bucket: tts-audio\n    requestTimeout: 0\n'))) as ConfigError;
    expect(zero.problems.join('\n')).to.include('storage.s3.requestTimeout: must be a duration greater than zero');
  });

  it('needs storage.s3 with the s3 driver, and both keys or neither', async () => {
    const missing = (await rejection(load('storage:\n  driver: s3\n'))) as ConfigError;
    expect(missing).to.be.instanceOf(ConfigError);
    expect(missing.problems.join('\n')).to.include('storage.s3: is required when storage.driver is s3');
    const half = (await rejection(load('storage:\n  driver: s3\n  s3:\n    bucket: tts-audio\n    accessKeyId: AKID\n'))) as ConfigError;
    expect(half.problems.join('\n')).to.include('set both accessKeyId and secretAccessKey, or neither');
  });

  it('refuses storage.s3 without storage.driver s3, written filesystem or left to its default (the bucket would go unused)', async () => {
    for (const driver of ['  driver: filesystem\n', '']) {
      const error = (await rejection(load(`storage:\n${driver}  s3:\n    bucket: tts-audio\n`))) as ConfigError;
      expect(error, driver).to.be.instanceOf(ConfigError);
      expect(error.problems, driver).to.deep.equal([
        'storage.s3: is set, but storage.driver is filesystem (its default): set storage.driver: s3 to store in the bucket, or remove storage.s3',
      ]);
    }
  });

  it('refuses database and redis URLs of other schemes', async () => {
    expect(await rejection(load('database:\n  url: mysql://db/gateway\n'))).to.be.instanceOf(ConfigError);
    expect(await rejection(load('redis:\n  url: http://redis:6379\n'))).to.be.instanceOf(ConfigError);
  });

  it('keeps the zero-config start embedded: SQLite, a folder, no Redis', async () => {
    const config = await loadConfig({ argv: [], env: {}, cwd: directory.path });
    expect(config.database.url).to.match(/^sqlite:/);
    expect(config.storage.driver).to.equal('filesystem');
    expect(config.storage.s3).to.equal(undefined);
    expect(config.redis).to.equal(undefined);
  });
});
