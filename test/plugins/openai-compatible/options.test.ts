import Ajv from 'ajv';
import { expect } from 'chai';
import compatiblePlugin from '../../../plugins/openai-compatible';

describe('openai-compatible plugin: options schema', () => {
  const validate = new Ajv({ strict: true, useDefaults: true }).compile(compatiblePlugin.optionsSchema);

  it('requires baseUrl but not apiKey', () => {
    expect(validate({})).to.equal(false);
    expect(validate.errors?.[0].params).to.deep.equal({ missingProperty: 'baseUrl' });
    expect(validate({ baseUrl: 'http://kokoro:8880' })).to.equal(true);
  });

  it('accepts only URL-path-safe prefixes (no slash)', () => {
    expect(validate({ baseUrl: 'http://kokoro:8880', modelPrefix: 'kokoro' })).to.equal(true);
    expect(validate({ baseUrl: 'http://kokoro:8880', modelPrefix: 'kokoro/' })).to.equal(false);
  });

  it('checks configured voices and formats', () => {
    expect(validate({ baseUrl: 'http://x', voices: [{ id: 'amy', gender: 'female' }] })).to.equal(false);
    expect(validate({ baseUrl: 'http://x', voices: [{ id: 'amy', language: 'English' }] })).to.equal(false);
    expect(validate({ baseUrl: 'http://x', formats: ['mp3', 'ogg'] })).to.equal(false);
    expect(validate({ baseUrl: 'http://x', speedRange: { min: 1.5, max: 2 } })).to.equal(false);
  });
});
