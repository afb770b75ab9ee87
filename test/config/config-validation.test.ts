import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig, parseByteSize, parseDuration } from '../../config';
import { configFixtures, loadYaml, rejection, TempDirectory } from './config-test-helpers';

const fixture = (name: string) => join(configFixtures, name);
const loadFixture = (name: string, env: Record<string, string> = {}) => loadConfig({ argv: ['--config', fixture(name)], env, cwd: configFixtures });

describe('config/loadConfig: interpolation, validation and units', () => {
  it('interpolates ${VAR} and ${VAR:-default} in any string and keeps $${ literal', async () => {
    const config = await loadFixture('interpolation.yaml', { GATEWAY_HOST: '127.0.0.1', DATA_DIR: '/var/lib/tts', OPENAI_API_KEY: 'sk-test' });
    expect(config.server.port).to.equal(8181);
    expect(config.server.host).to.equal('127.0.0.1');
    expect(config.database.url).to.equal('sqlite:/var/lib/tts/gateway.db');
    expect(config.providers[1].options).to.deep.equal({ apiKey: 'sk-test', note: 'costs ${PER_CHARACTER}' });
  });

  it('uses a set variable over the default and coerces it to the field type', async () => {
    const config = await loadFixture('interpolation.yaml', { GATEWAY_PORT: '9999', GATEWAY_HOST: 'h', DATA_DIR: 'd', OPENAI_API_KEY: 'k' });
    expect(config.server.port).to.equal(9999);
  });

  it('names the missing variable and the path that needs it', async () => {
    const error = await rejection(loadFixture('interpolation.yaml', { GATEWAY_HOST: 'h', DATA_DIR: 'd' }));
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.message).to.include(fixture('interpolation.yaml'));
    expect(error.message).to.include('providers[1].options.apiKey needs environment variable OPENAI_API_KEY, which is not set');
  });

  it('treats an empty variable as missing', async () => {
    const error = await rejection(loadFixture('interpolation.yaml', { GATEWAY_HOST: '', DATA_DIR: 'd', OPENAI_API_KEY: 'k' }));
    expect(error.message).to.include('server.host needs environment variable GATEWAY_HOST');
  });

  it('names the file, the path and the expectation for a bad port', async () => {
    const error = (await rejection(loadFixture('bad-port.yaml'))) as ConfigError;
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.file).to.equal(fixture('bad-port.yaml'));
    expect(error.message).to.include(fixture('bad-port.yaml'));
    expect(error.problems).to.deep.equal(['server.port: must be integer <= 65535 (found 70000)']);
  });

  it('rejects an unknown key and lists the allowed ones', async () => {
    const error = (await rejection(loadFixture('unknown-key.yaml'))) as ConfigError;
    expect(error.problems).to.have.length(1);
    expect(error.problems[0]).to.match(/^server: unknown key "prot" \(allowed: port, host, /);
  });

  it('reports every problem at once, never echoing string values', async () => {
    const directory = new TempDirectory();
    try {
      directory.write(
        'tts-gateway.config.json',
        JSON.stringify({ auth: { registration: 'sk-secret-looking-value' }, storage: { retention: 'forever' }, providers: [{ options: {} }] }),
      );
      const many = (await rejection(loadConfig({ argv: [], env: {}, cwd: directory.path }))) as ConfigError;
      expect(many.problems).to.include('auth.registration: must be one of: open, closed');
      expect(many.problems.some((line) => line.startsWith('storage.retention: must be a duration such as'))).to.equal(true);
      expect(many.problems).to.include('providers[0]: missing required key "plugin"');
      expect(many.message).to.not.include('sk-secret-looking-value');
    } finally {
      directory.remove();
    }
  });

  it('converts human-friendly units to milliseconds and bytes', async () => {
    const config = await loadFixture('units.yaml');
    expect(config.server.bodyLimitBytes).to.equal(1024 * 1024);
    expect(config.storage.retentionMs).to.equal(2 * 86_400_000);
    expect(config.storage.sweepIntervalMs).to.equal(90_000);
    expect(config.cache.catalogTtlMs).to.equal(15 * 60_000);
    expect(config.synthesis.timeoutMs).to.equal(1500);
  });

  it('parses durations and sizes, and refuses what is neither', () => {
    expect(parseDuration('30s')).to.equal(30_000);
    expect(parseDuration('1.5h')).to.equal(5_400_000);
    expect(parseDuration(250)).to.equal(250);
    expect(parseDuration('250')).to.equal(250);
    expect(parseDuration('3 weeks')).to.equal(undefined);
    expect(parseByteSize('256kb')).to.equal(262_144);
    expect(parseByteSize('2MB')).to.equal(2_097_152);
    expect(parseByteSize('lots')).to.equal(undefined);
  });
});

describe('config/loadConfig: ifEnv providers', () => {
  const load = (env: Record<string, string>) => loadFixture('every-provider.yaml', env);

  it('starts with only the providers whose variables are set, and names the skipped ones', async () => {
    const messages: string[] = [];
    const config = await loadConfig({
      argv: ['--config', fixture('every-provider.yaml')],
      env: { ELEVENLABS_API_KEY: 'el-key' },
      cwd: configFixtures,
      logger: { info: (message) => messages.push(message) },
    });
    expect(config.providers.map((entry) => entry.plugin)).to.deep.equal(['espeak', 'elevenlabs']);
    expect(config.providers[1]).to.deep.include({ configPath: 'providers[2]', options: { apiKey: 'el-key' }, ifEnv: ['ELEVENLABS_API_KEY'] });
    expect(config.skippedProviders).to.deep.equal([
      { plugin: 'openai', id: undefined, configPath: 'providers[1]', missingVariables: ['OPENAI_API_KEY'] },
      { plugin: 'azure', id: undefined, configPath: 'providers[3]', missingVariables: ['AZURE_SPEECH_KEY', 'AZURE_SPEECH_REGION'] },
    ]);
    expect(messages.join('\n')).to.include('OPENAI_API_KEY').and.include('AZURE_SPEECH_REGION');
  });

  it('needs every listed variable', async () => {
    const config = await load({ AZURE_SPEECH_KEY: 'k' });
    expect(config.providers.map((entry) => entry.plugin)).to.deep.equal(['espeak']);
    expect(config.skippedProviders.find((entry) => entry.plugin === 'azure')?.missingVariables).to.deep.equal(['AZURE_SPEECH_REGION']);
  });

  it('uses every provider when every variable is set', async () => {
    const config = await load({ OPENAI_API_KEY: 'a', ELEVENLABS_API_KEY: 'b', AZURE_SPEECH_KEY: 'c', AZURE_SPEECH_REGION: 'westeurope' });
    expect(config.providers.map((entry) => entry.plugin)).to.deep.equal(['espeak', 'openai', 'elevenlabs', 'azure']);
    expect(config.skippedProviders).to.deep.equal([]);
  });

  it('starts past a skipped entry whose other fields name unset variables (a size, a retry count), as it does for its options', async () => {
    const directory = new TempDirectory();
    try {
      directory.write(
        'tts-gateway.config.yaml',
        'providers:\n  - plugin: espeak\n  - plugin: openai\n    ifEnv: OPENAI_API_KEY\n    maxResponseBytes: ${OPENAI_MAX_BYTES}\n    resilience:\n      retries: ${OPENAI_RETRIES}\n    options:\n      apiKey: ${OPENAI_API_KEY}\n',
      );
      const config = await loadConfig({ argv: [], env: {}, cwd: directory.path });
      expect(config.providers.map((entry) => entry.plugin)).to.deep.equal(['espeak']);
      expect(config.skippedProviders).to.deep.equal([{ plugin: 'openai', id: undefined, configPath: 'providers[1]', missingVariables: ['OPENAI_API_KEY'] }]);
      // Used, the same entry is checked in full.
      const error = await rejection(loadConfig({ argv: [], env: { OPENAI_API_KEY: 'k', OPENAI_MAX_BYTES: 'lots', OPENAI_RETRIES: '1' }, cwd: directory.path }));
      expect(error.message).to.include('providers[1].maxResponseBytes');
    } finally {
      directory.remove();
    }
  });

  it('stops the start when every provider is skipped', async () => {
    const directory = new TempDirectory();
    try {
      directory.write('tts-gateway.config.yaml', 'providers:\n  - plugin: openai\n    ifEnv: OPENAI_API_KEY\n');
      const error = await rejection(loadConfig({ argv: [], env: {}, cwd: directory.path }));
      expect(error.message).to.include('every provider was skipped').and.include('OPENAI_API_KEY');
    } finally {
      directory.remove();
    }
  });
});

describe('config/loadConfig: empty and boolean values', () => {
  const refusal = async (yaml: string): Promise<ConfigError> => (await rejection(loadYaml(yaml))) as ConfigError;

  // ajv's type coercion (there for `port: ${PORT}`) made an empty value 0: a random port.
  it('refuses a key left empty instead of reading it as 0', async () => {
    const error = await refusal('server:\n  port:\n  bodyLimit:\nresilience:\n  breaker:\n    failures:\n');
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.problems).to.deep.equal([
      'server.port: must be integer (found null)',
      'server.bodyLimit: must be string or integer (found null)',
      'resilience.breaker.failures: must be integer (found null)',
    ]);
  });

  it('refuses true or false where a number is expected', async () => {
    const error = await refusal('server:\n  port: true\nsynthesis:\n  chunkConcurrency: false\n  timeout: true\n');
    expect(error.problems).to.deep.equal([
      'server.port: must be integer (found true)',
      'synthesis.chunkConcurrency: must be integer (found false)',
      'synthesis.timeout: must be string or integer (found true)',
    ]);
  });

  it('still reports the other problems, once per path', async () => {
    const error = await refusal('server:\n  port:\n  prot: 1\n');
    expect(error.problems).to.have.length(2);
    expect(error.problems[0]).to.equal('server.port: must be integer (found null)');
    expect(error.problems[1]).to.match(/^server: unknown key "prot"/);
  });
});

describe('config/loadConfig: durations run by timers', () => {
  // Node runs a timer of more than 2^31-1 ms (24.8 days) after 1 ms: a sweep every millisecond.
  it('refuses a timer duration longer than 24 days, naming the path', async () => {
    const error = (await rejection(
      loadYaml('storage:\n  sweepInterval: 30d\nsynthesis:\n  timeout: 25d\nresilience:\n  maxBackoff: 30d\n  relisting:\n    maxDelay: 30d\n'),
    )) as ConfigError;
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.problems).to.include.members([
      'storage.sweepInterval: must be at most 24d (a longer timer would fire at once)',
      'synthesis.timeout: must be at most 24d (a longer timer would fire at once)',
      'resilience.maxBackoff: must be at most 24d (a longer timer would fire at once)',
      'resilience.relisting.maxDelay: must be at most 24d (a longer timer would fire at once)',
    ]);
  });

  it('takes 24 days for a timer, and longer for what is no timer', async () => {
    const config = await loadYaml('storage:\n  sweepInterval: 24d\n  retention: 90d\nauth:\n  loginKeyTtl: 365d\n');
    expect(config.storage.sweepIntervalMs).to.equal(24 * 86_400_000);
    expect(config.storage.retentionMs).to.equal(90 * 86_400_000);
    expect(config.auth.loginKeyTtlMs).to.equal(365 * 86_400_000);
  });
});
