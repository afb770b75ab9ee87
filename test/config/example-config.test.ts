import { expect } from 'chai';
import { join } from 'node:path';
import { loadConfig } from '../../config';
import { projectRoot } from '../support/paths';

/** The shipped example enables every provider from environment variables. */
describe('config/tts-gateway.config.example.yaml', () => {
  const example = join(projectRoot, 'config', 'tts-gateway.config.example.yaml');
  const load = (env: Record<string, string>) => loadConfig({ argv: ['--config', example], env, cwd: projectRoot });

  it('starts with the embedded engine alone when no variable is set, naming every skipped variable', async () => {
    const config = await load({});
    expect(config.providers.map((entry) => entry.plugin)).to.deep.equal(['espeak']);
    expect(config.skippedProviders).to.have.length(10);
    const missing = config.skippedProviders.flatMap((entry) => entry.missingVariables);
    for (const variable of ['OPENAI_API_KEY', 'ELEVENLABS_API_KEY', 'GOOGLE_TTS_API_KEY', 'DEEPGRAM_API_KEY', 'CARTESIA_API_KEY', 'MINIMAX_API_KEY']) {
      expect(missing).to.include(variable);
    }
  });

  it('enables exactly the providers whose variables are set, with the secrets interpolated', async () => {
    const config = await load({ OPENAI_API_KEY: 'sk-example', DEEPGRAM_API_KEY: 'dg-example' });
    expect(config.providers.map((entry) => entry.plugin)).to.deep.equal(['espeak', 'openai', 'deepgram']);
    expect(config.providers[1].options).to.include({ apiKey: 'sk-example' });
    expect(config.skippedProviders).to.have.length(8);
  });
});
