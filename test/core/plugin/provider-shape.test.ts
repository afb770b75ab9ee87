import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadProviders } from '../../../core';
import { FakeDeployment, rejection } from './plugin-test-helpers';

/** A plugin file whose create() returns `provider` (source text). */
function pluginReturning(provider: string): string {
  return `'use strict';
module.exports = {
  contract: 'tts-gateway.plugin/v1',
  id: 'acme',
  optionsSchema: { type: 'object' },
  create() { return ${provider}; },
};
`;
}

describe('core/plugin loadProviders: what create() returns', () => {
  let deployment: FakeDeployment;
  beforeEach(() => (deployment = new FakeDeployment()));
  afterEach(() => deployment.remove());

  function load(provider: string) {
    writeFileSync(join(deployment.root, 'acme.js'), pluginReturning(provider));
    return loadProviders([{ plugin: 'fake' }, { plugin: './acme.js' }], deployment.options());
  }

  it('stops the start naming the entry when create() returns no provider (a forgotten return)', async () => {
    const error = await rejection(load('undefined'));
    expect(error.code).to.equal('TTS_PLUGIN_BAD_SHAPE');
    expect(error.message).to.include('providers[1]').and.include('create()');
  });

  it('stops the start naming the entry when the provider has no models() (not an outage to retry forever)', async () => {
    const error = await rejection(load('{ async voices() { return []; }, async synthesize() { return {}; } }'));
    expect(error.code).to.equal('TTS_PLUGIN_BAD_SHAPE');
    expect(error.message).to.include('providers[1]').and.include('"models"');
  });
});
