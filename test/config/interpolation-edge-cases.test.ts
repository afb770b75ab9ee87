import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../config';
import { rejection, TempDirectory } from './config-test-helpers';

async function loadWith(yaml: string, env: Record<string, string>): Promise<Awaited<ReturnType<typeof loadConfig>>> {
  const directory = new TempDirectory();
  try {
    directory.write('tts-gateway.config.yaml', yaml);
    return await loadConfig({ argv: [], env, cwd: directory.path });
  } finally {
    directory.remove();
  }
}

const withApiKey = (value: string) => `providers:\n  - plugin: openai\n    options:\n      apiKey: "${value}"\n`;

describe('config/loadConfig: ${...} references that are not NAME or NAME:-default', () => {
  it('names a malformed reference without echoing what it holds (a key pasted inside ${ })', async () => {
    const pasted = 'sk-proj-Abc123Def456Ghi789Jkl';
    const error = (await rejection(loadWith(withApiKey(`\${${pasted}}`), {}))) as ConfigError;
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.message).to.include('providers[0].options.apiKey');
    expect(error.message).to.not.include(pasted);
  });

  it('does not echo a value written with the wrong default syntax (${NAME=value})', async () => {
    const pasted = 'correct-horse-battery-staple';
    const error = (await rejection(loadWith(withApiKey(`\${OPENAI_API_KEY=${pasted}}`), {}))) as ConfigError;
    expect(error.message).to.include('providers[0].options.apiKey');
    expect(error.message).to.not.include(pasted);
  });

  it('never passes a reference on as literal text: a default that holds another reference is refused', async () => {
    const loaded = loadWith(withApiKey('${PRIMARY_KEY:-${SECONDARY_KEY}}'), { SECONDARY_KEY: 'the-secondary-key' });
    const error = (await rejection(loaded)) as ConfigError;
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.problems).to.deep.equal([
      'providers[0].options.apiKey has a malformed reference (write ${NAME} or ${NAME:-default}, whose default holds no ${)',
    ]);
  });
});
