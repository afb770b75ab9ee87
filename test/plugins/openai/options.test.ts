import Ajv from 'ajv';
import { expect } from 'chai';
import openAiPlugin from '../../../plugins/openai';

describe('openai plugin: options schema', () => {
  const validate = new Ajv({ strict: true, useDefaults: true }).compile(openAiPlugin.optionsSchema);

  it('requires apiKey, so a missing key stops the start', () => {
    expect(validate({})).to.equal(false);
    expect(validate.errors?.[0].params).to.deep.equal({ missingProperty: 'apiKey' });
  });

  it('applies the documented defaults', () => {
    const options = { apiKey: 'sk-x' };
    expect(validate(options)).to.equal(true);
    expect(options).to.deep.equal({ apiKey: 'sk-x', baseUrl: 'https://api.openai.com', timeoutMs: 30000 });
  });

  it('rejects a base URL that is not http(s) and unknown options', () => {
    expect(validate({ apiKey: 'sk-x', baseUrl: 'ftp://api.openai.com' })).to.equal(false);
    expect(validate({ apiKey: 'sk-x', voice: 'alloy' })).to.equal(false);
  });
});
