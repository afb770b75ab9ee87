import Ajv from 'ajv';
import { expect } from 'chai';
import elevenLabsPlugin from '../../../plugins/elevenlabs';

describe('elevenlabs plugin: options schema', () => {
  const validate = new Ajv({ strict: true, useDefaults: true }).compile(elevenLabsPlugin.optionsSchema);

  it('requires apiKey', () => {
    expect(validate({})).to.equal(false);
    expect(validate.errors?.[0].params).to.deep.equal({ missingProperty: 'apiKey' });
  });

  it('applies the documented defaults', () => {
    const options = { apiKey: 'xi-x' };
    expect(validate(options)).to.equal(true);
    expect(options).to.deep.equal({ apiKey: 'xi-x', baseUrl: 'https://api.elevenlabs.io', timeoutMs: 30000, mp3OutputFormat: 'mp3_44100_128', pcmSampleRate: 24000, voicePageSize: 100 });
  });

  it('accepts only sample rates and page sizes ElevenLabs offers', () => {
    expect(validate({ apiKey: 'xi-x', pcmSampleRate: 11025 })).to.equal(false);
    expect(validate({ apiKey: 'xi-x', voicePageSize: 101 })).to.equal(false);
    expect(validate({ apiKey: 'xi-x', models: ['eleven/v3'] })).to.equal(false);
  });
});
