import { expect } from 'chai';
import { ConfigError } from '../../config';
import { loadYaml, rejection } from './config-test-helpers';

describe('config/loadConfig: routes and aliases that can never be served as written', () => {
  it('refuses two routes of one name (the second would be ignored without a word)', async () => {
    const error = (await rejection(
      loadYaml(
        [
          'routes:',
          '  - name: narrator',
          '    targets:',
          '      - model: espeak-ng',
          '  - name: narrator',
          '    strategy: loadbalance',
          '    targets:',
          '      - model: kokoro-tts-1',
          '',
        ].join('\n'),
      ),
    )) as ConfigError;
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.problems.join('\n')).to.include('routes[1].name');
  });

  it('refuses two aliases of one name', async () => {
    const error = (await rejection(
      loadYaml(['aliases:', '  - model: tts-1', '    target: espeak-ng', '  - model: tts-1', '    target: kokoro-tts-1', ''].join('\n')),
    )) as ConfigError;
    expect(error.problems.join('\n')).to.include('aliases[1].model');
  });

  it('refuses a route that names itself as a target (it could never be served)', async () => {
    const error = (await rejection(
      loadYaml(['routes:', '  - name: narrator', '    targets:', '      - model: narrator', '      - model: espeak-ng', ''].join('\n')),
    )) as ConfigError;
    expect(error.problems.join('\n')).to.include('routes[0].targets[0].model');
  });
});
