import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../config';
import { configFixtures, rejection, TempDirectory } from './config-test-helpers';

describe('config/loadConfig: sources and defaults', () => {
  let directory: TempDirectory;
  beforeEach(() => (directory = new TempDirectory()));
  afterEach(() => directory.remove());

  const load = (argv: string[] = [], env: Record<string, string> = {}) => loadConfig({ argv, env, cwd: directory.path });

  it('starts with defaults when there is no config: espeak only, SQLite, file storage, 24 h, port 8080, open registration', async () => {
    const config = await load();
    expect(config.sourceFile).to.equal(undefined);
    expect(config.baseDirectory).to.equal(directory.path);
    expect(config.providers.map((entry) => entry.plugin)).to.deep.equal(['espeak']);
    expect(config.database.url).to.equal('sqlite:./data/gateway.db');
    expect(config.storage).to.include({ driver: 'filesystem', path: './data/audio', retentionMs: 24 * 3_600_000 });
    expect(config.server).to.include({ port: 8080, bodyLimitBytes: 256 * 1024 });
    expect(config.auth.registration).to.equal('open');
    expect(config.cache.catalogTtlMs).to.equal(10 * 60_000);
    expect(config.skippedProviders).to.deep.equal([]);
  });

  it('logs JSON lines in production and readable lines otherwise, unless the file says', async () => {
    expect((await loadConfig({ argv: [], env: { NODE_ENV: 'production' }, cwd: directory.path })).logging.format).to.equal('json');
    expect((await loadConfig({ argv: [], env: {}, cwd: directory.path })).logging.format).to.equal('pretty');
  });

  it('returns a deeply frozen configuration', async () => {
    const config = await load();
    expect(Object.isFrozen(config)).to.equal(true);
    expect(Object.isFrozen(config.server)).to.equal(true);
    expect(Object.isFrozen(config.providers[0])).to.equal(true);
    expect(() => {
      (config.server as { port: number }).port = 1;
    }).to.throw(TypeError);
  });

  const discovered: Array<[string, string, (config: Awaited<ReturnType<typeof loadConfig>>) => void]> = [
    ['basic.yaml', 'tts-gateway.config.yaml', (config) => expect(config.server.port).to.equal(9001)],
    ['basic.yaml', '.tts-gatewayrc', (config) => expect(config.auth.registration).to.equal('closed')],
    ['basic.json', 'tts-gateway.config.json', (config) => expect(config.cache.catalogTtlMs).to.equal(300_000)],
    ['basic.js', 'tts-gateway.config.js', (config) => expect(config.logging.level).to.equal('debug')],
    ['basic.js', '.tts-gatewayrc.cjs', (config) => expect(config.server.port).to.equal(9003)],
    ['basic.ts', 'tts-gateway.config.ts', (config) => expect(config.synthesis.timeoutMs).to.equal(45_000)],
  ];
  for (const [fixture, name, check] of discovered) {
    it(`finds ${name} in the working directory`, async () => {
      const file = directory.copy(fixture, name);
      const config = await load();
      expect(config.sourceFile).to.equal(file);
      expect(config.baseDirectory).to.equal(directory.path);
      check(config);
    });
  }

  it('reads the tts-gateway key of package.json', async () => {
    directory.write('package.json', JSON.stringify({ name: 'my-deployment', 'tts-gateway': { server: { port: 9005 } } }));
    expect((await load()).server.port).to.equal(9005);
  });

  it('keeps the publicBaseUrl without its trailing slash and leaves relative paths as written', async () => {
    directory.copy('basic.yaml', 'tts-gateway.config.yaml');
    const config = await load();
    expect(config.server.publicBaseUrl).to.equal('https://tts.example.com');
    expect(config.storage.path).to.equal('./audio');
  });

  it('prefers --config over TTS_GATEWAY_CONFIG over the search', async () => {
    directory.copy('basic.yaml', 'tts-gateway.config.yaml');
    const fromEnv = directory.copy('basic.json', 'env.json');
    const fromArgv = directory.copy('basic.js', 'argv.js');
    expect((await load([], { TTS_GATEWAY_CONFIG: 'env.json' })).sourceFile).to.equal(fromEnv);
    expect((await load(['--config', 'argv.js'], { TTS_GATEWAY_CONFIG: 'env.json' })).sourceFile).to.equal(fromArgv);
    expect((await load([`--config=${fromEnv}`])).server.port).to.equal(9002);
  });

  // `--config=$CONFIG_FILE` with the variable unset must not start on another file or the defaults.
  it('refuses an empty --config instead of searching', async () => {
    directory.copy('basic.yaml', 'tts-gateway.config.yaml');
    for (const argv of [['--config='], ['--config', '']]) {
      const error = await rejection(load(argv));
      expect(error).to.be.instanceOf(ConfigError);
      expect(error.message).to.equal('--config needs a file path');
    }
  });

  it('resolves plugin paths from the folder of an explicit config file', async () => {
    const config = await load(['--config', join(configFixtures, 'basic.yaml')]);
    expect(config.baseDirectory).to.equal(configFixtures);
  });

  it('names a missing explicit file and where it was named', async () => {
    const error = await rejection(load([], { TTS_GATEWAY_CONFIG: 'nowhere.yaml' }));
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.message).to.include(join(directory.path, 'nowhere.yaml')).and.include('TTS_GATEWAY_CONFIG');
  });

  it('reports a syntax error with the file, without echoing its lines', async () => {
    const file = directory.write('tts-gateway.config.yaml', 'server:\n  port: [8080\napiKey: sk-literal-secret-0123456789\n');
    const error = await rejection(load());
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.message).to.include(file);
    expect(error.message).to.not.include('sk-literal-secret');
  });

  it('explains that ${VAR} must be quoted inside a YAML flow mapping', async () => {
    const error = await rejection(load(['--config', join(configFixtures, 'flow-reference.yaml')], { OPENAI_API_KEY: 'x' }));
    expect(error.message).to.include('line 3').and.include('quote a reference');
  });

  it('lets PORT and PUBLIC_BASE_URL override the file', async () => {
    directory.copy('basic.yaml', 'tts-gateway.config.yaml');
    const config = await load([], { PORT: '7070', PUBLIC_BASE_URL: 'http://gateway.internal:7070/' });
    expect(config.server.port).to.equal(7070);
    expect(config.server.publicBaseUrl).to.equal('http://gateway.internal:7070');
  });

  it('rejects a PORT that is not a port number', async () => {
    const error = await rejection(load([], { PORT: 'eighty' }));
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.message).to.include('PORT');
  });
});
