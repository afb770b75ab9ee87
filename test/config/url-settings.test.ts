import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../config';
import { loadYaml, rejection, TempDirectory } from './config-test-helpers';

// The schema checks a URL's scheme; its client parses the rest at start, where it failed as
// "TypeError: Invalid URL" naming no setting (or blamed an environment variable nobody set).
describe('config/loadConfig: URL settings that their clients cannot parse', () => {
  const problemsOf = async (yaml: string): Promise<ConfigError> => {
    const error = await rejection(loadYaml(yaml));
    expect(error).to.be.instanceOf(ConfigError);
    return error as ConfigError;
  };

  it('names redis.url with a port that is no port, or a password that does not decode, without echoing it', async () => {
    for (const url of ['redis://:Secret-Pw1@127.0.0.1:notaport', 'redis://:Secret%zzPw1@127.0.0.1:6379', 'redis://:Secret-Pw1@[bad']) {
      const error = await problemsOf(`redis:\n  url: "${url}"\n`);
      expect(error.problems.join('\n'), url).to.match(/^redis\.url: /);
      expect(error.message, url).to.not.include('Secret');
    }
  });

  it('names a PostgreSQL database.url that does not parse, without echoing it', async () => {
    const error = await problemsOf('database:\n  url: "postgres://gateway:Secret-Pw1@db:99999/gateway"\n');
    expect(error.problems.join('\n')).to.match(/^database\.url: /);
    expect(error.message).to.not.include('Secret');
  });

  it('names storage.s3.endpoint with a port out of range', async () => {
    const error = await problemsOf('storage:\n  driver: s3\n  s3:\n    bucket: tts-audio\n    endpoint: "http://minio:99999"\n');
    expect(error.problems.join('\n')).to.match(/^storage\.s3\.endpoint: /);
  });

  it("blames the file's server.publicBaseUrl, not a PUBLIC_BASE_URL that is not set", async () => {
    const directory = new TempDirectory();
    try {
      const file = directory.write('tts-gateway.config.yaml', 'server:\n  publicBaseUrl: "https://tts.example.com:99999"\n');
      const error = (await rejection(loadConfig({ argv: [], env: {}, cwd: directory.path }))) as ConfigError;
      expect(error.message).to.not.include('PUBLIC_BASE_URL');
      expect(error.file).to.equal(file);
      expect(error.problems.join('\n')).to.match(/^server\.publicBaseUrl: /);
    } finally {
      directory.remove();
    }
  });

  it('still takes the URLs the README shows, a percent-encoded password among them', async () => {
    const config = await loadYaml(
      'server:\n  publicBaseUrl: https://tts.example.com/\ndatabase:\n  url: postgres://gateway:p%40ss@db:5432/gateway\nredis:\n  url: rediss://:p%40ss@redis:6380/1\nstorage:\n  driver: s3\n  s3:\n    bucket: tts-audio\n    endpoint: http://minio:9000\n',
    );
    expect(config.redis?.url).to.equal('rediss://:p%40ss@redis:6380/1');
    expect(config.server.publicBaseUrl).to.equal('https://tts.example.com');
  });
});
