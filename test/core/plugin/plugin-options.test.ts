import Ajv from 'ajv';
import { expect } from 'chai';
import type { OptionsSchema } from '../../../core';
import { PluginLoadError } from '../../../core/plugin/plugin-load-error';
import { validatePluginOptions } from '../../../core/plugin/validate-plugin-options';

/** Options as a plugin's create() receives them: defaults filled, optional keys maybe absent. */
interface AcmeOptions {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly region?: string;
  readonly voices?: readonly { readonly id: string; readonly name?: string }[];
}

const acmeSchema: OptionsSchema<AcmeOptions> = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: { type: 'string', minLength: 1 },
    baseUrl: { type: 'string', default: 'https://api.acme.test' },
    region: { nullable: true, type: 'string', minLength: 1 },
    voices: {
      nullable: true,
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string' }, name: { nullable: true, type: 'string' } } },
    },
  },
};

describe('core/plugin: options typed by their schema', () => {
  it('rejects, at compile time, a schema that has drifted from the options type', () => {
    // Each line below is a compile error; `npm run build` fails if TypeScript accepts one.
    // @ts-expect-error: the type's `region` is missing from the schema's properties
    const missing: OptionsSchema<AcmeOptions> = { type: 'object', required: ['apiKey'], properties: { apiKey: { type: 'string' }, baseUrl: { type: 'string' }, voices: acmeSchema.properties.voices } };
    // @ts-expect-error: `baseUrl` is a string in the type, a number in the schema
    const retyped: OptionsSchema<AcmeOptions> = { ...acmeSchema, properties: { ...acmeSchema.properties, baseUrl: { type: 'integer' } } };
    expect([missing, retyped]).to.have.length(2);
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
