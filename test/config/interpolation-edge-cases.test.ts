import { expect } from 'chai';
import { ConfigError } from '../../config';
import { loadYaml, rejection } from './config-test-helpers';

const withApiKey = (value: string) => `providers:\n  - plugin: openai\n    options:\n      apiKey: "${value}"\n`;

describe('config/loadConfig: ${...} references that are not NAME or NAME:-default', () => {
  it('names a malformed reference without echoing what it holds (a key pasted inside ${ })', async () => {
    const pasted = 'sk-proj-Abc123Def456Ghi789Jkl';
    const error = (await rejection(loadYaml(withApiKey(`\${${pasted}}`), {}))) as ConfigError;
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.message).to.include('providers[0].options.apiKey');
    expect(error.message).to.not.include(pasted);
  });

  it('does not echo a value written with the wrong default syntax (${NAME=value})', async () => {
    const pasted = 'correct-horse-battery-staple';
    const error = (await rejection(loadYaml(withApiKey(`\${OPENAI_API_KEY=${pasted}}`), {}))) as ConfigError;
    expect(error.message).to.include('providers[0].options.apiKey');
    expect(error.message).to.not.include(pasted);
  });

  it('never passes a reference on as literal text: a default that holds another reference is refused', async () => {
    const loaded = loadYaml(withApiKey('${PRIMARY_KEY:-${SECONDARY_KEY}}'), { SECONDARY_KEY: 'the-secondary-key' });
    const error = (await rejection(loaded)) as ConfigError;
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.problems).to.deep.equal([
      'providers[0].options.apiKey has a malformed reference (write ${NAME} or ${NAME:-default}, whose default holds no ${)',
    ]);
  });
});
