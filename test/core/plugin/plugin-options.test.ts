import Ajv from 'ajv';
import { expect } from 'chai';
import type { OptionsFromSchema, OptionsSchema } from '../../../core';
import { PluginLoadError } from '../../../core/plugin/plugin-load-error';
import { validatePluginOptions } from '../../../core/plugin/validate-plugin-options';

const acmeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: { type: 'string', minLength: 1 },
    baseUrl: { type: 'string', default: 'https://api.acme.test' },
    region: { type: 'string', minLength: 1 },
    voices: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string' }, name: { type: 'string' } } },
    },
  },
} as const satisfies OptionsSchema;

/** Options as a plugin's create() receives them: defaults filled, optional keys maybe absent. */
type AcmeOptions = OptionsFromSchema<typeof acmeSchema>;

describe('core/plugin: options typed by their schema', () => {
  it('reads the options type off the schema, so the two cannot drift apart', () => {
    // Each line below is a compile error; `npm run build` fails if TypeScript accepts one.
    // @ts-expect-error: the schema requires `apiKey`
    const noKey: AcmeOptions = { baseUrl: 'https://api.acme.test' };
    // @ts-expect-error: `baseUrl` has a default, so create() always receives it
    const noDefault: AcmeOptions = { apiKey: 'k' };
    // @ts-expect-error: `baseUrl` is a string in the schema, not a number
    const retyped: AcmeOptions = { apiKey: 'k', baseUrl: 1 };
    // @ts-expect-error: the schema has no `regoin` (additionalProperties: false)
    const typo: AcmeOptions = { apiKey: 'k', baseUrl: 'https://api.acme.test', regoin: 'eu' };
    // @ts-expect-error: a voice needs its `id`
    const voiceWithoutId: AcmeOptions = { apiKey: 'k', baseUrl: 'https://api.acme.test', voices: [{ name: 'Amy' }] };
    const full: AcmeOptions = { apiKey: 'k', baseUrl: 'https://api.acme.test', region: 'eu', voices: [{ id: 'amy', name: 'Amy' }] };
    expect([noKey, noDefault, retyped, typo, voiceWithoutId, full]).to.have.length(6);
  });

  it('validates and fills defaults as the type says', () => {
    const validate = new Ajv({ strict: true, useDefaults: true }).compile(acmeSchema);
    const options = { apiKey: 'k' };
    expect(validate(options)).to.equal(true);
    expect(options).to.deep.equal({ apiKey: 'k', baseUrl: 'https://api.acme.test' });
  });

  it('treats an option set to null as not given: a default applies, a required one is missing', () => {
    const where = { describe: '"acme"', configPath: 'providers[0]' };
    const options = validatePluginOptions(acmeSchema, { apiKey: 'k', baseUrl: null, region: null, voices: [{ id: 'amy', name: null }] }, where);
    expect(options).to.deep.equal({ apiKey: 'k', baseUrl: 'https://api.acme.test', voices: [{ id: 'amy' }] });
    expect(() => validatePluginOptions(acmeSchema, { apiKey: null }, where))
      .to.throw(PluginLoadError)
      .with.property('message')
      .that.includes('providers[0].options: missing required key "apiKey"');
  });
});
