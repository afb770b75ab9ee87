import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../../config';
import {
  ERROR_CATALOGUE,
  formatErrorMessage,
  GATEWAY_ERROR_MARK,
  GatewayError,
  gatewayError,
  isGatewayError,
  START_ERROR_CATALOGUE,
  templateParameters,
} from '../../../core';
import { PluginLoadError } from '../../../core/plugin/plugin-load-error';
import { projectRoot } from '../../support/paths';

/** The rows of the README's error tables: `| status | code | when |` and `| code | when |`. */
function readmeRows(): { status?: number; code: string }[] {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  return [...readme.matchAll(/^\| (?:(\d{3}) \| )?`(TTS_[A-Z_]+)` \|/gm)].map((match) => ({ status: match[1] ? Number(match[1]) : undefined, code: match[2] }));
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return entry.endsWith('.ts') ? [path] : [];
  });
}

describe('core/errors: one catalogue', () => {
  it("lists every HTTP code in the README's error table with its status, and nothing else", () => {
    const rows = readmeRows().filter((row) => row.status !== undefined);
    expect(rows.map((row) => row.code).sort()).to.deep.equal(Object.keys(ERROR_CATALOGUE).sort());
    for (const row of rows) expect(row.status, row.code).to.equal(ERROR_CATALOGUE[row.code as keyof typeof ERROR_CATALOGUE].status);
  });

  it("lists every start-up code in the README's table of errors that stop the start", () => {
    const rows = readmeRows().filter((row) => row.status === undefined);
    expect(rows.map((row) => row.code).sort()).to.deep.equal(Object.keys(START_ERROR_CATALOGUE).sort());
  });

  it('gives every code one template of named parameters and balanced optional parts', () => {
    for (const [code, entry] of [...Object.entries(ERROR_CATALOGUE), ...Object.entries(START_ERROR_CATALOGUE)]) {
      const withoutParameters = entry.template.replace(/\{[A-Za-z]+\}/g, '');
      expect(withoutParameters, code).to.not.match(/\{[A-Za-z]*\}/);
      expect(entry.template.split('[').length, code).to.equal(entry.template.split(']').length);
    }
  });

  it('fills a template: optional parts only when all their values are given, a missing value shows', () => {
    const template = ERROR_CATALOGUE.TTS_ERR_UPSTREAM_AUTH.template;
    expect(templateParameters(template)).to.deep.equal(['provider', 'upstream', 'providerCode']);
    expect(formatErrorMessage(template, { provider: 'Acme', upstream: 'HTTP 401', providerCode: 'invalid_key' })).to.equal("Acme rejected the gateway's credentials (HTTP 401): invalid_key");
    expect(formatErrorMessage(template, { provider: 'Acme', upstream: 'HTTP 401' })).to.equal("Acme rejected the gateway's credentials (HTTP 401)");
    expect(formatErrorMessage(template, { provider: 'Acme' })).to.equal("Acme rejected the gateway's credentials (<upstream>)");
  });

  it('words a code one way wherever it is raised', () => {
    const error = gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: 'OpenAI', model: 'whisper-1' });
    expect(error).to.include({ code: 'TTS_ERR_MODEL_NOT_FOUND', status: 404, retryable: false, message: "OpenAI has no model 'whisper-1'" });
  });

  it('builds start-up errors from their templates, the config error included', () => {
    const clash = new PluginLoadError('TTS_PLUGIN_DUPLICATE_ID', { provider: '"fake"', first: 'providers[0]', configPath: 'providers[1]' });
    expect(clash.message).to.equal('Provider id "fake" is used by both providers[0] and providers[1]: give each instance its own "id:"');
    const config = new ConfigError('Invalid configuration', ['server.port: must be <= 65535'], 'gateway.yaml');
    expect(config.code in START_ERROR_CATALOGUE).to.equal(true);
    expect(config.message).to.equal(
      formatErrorMessage(START_ERROR_CATALOGUE.TTS_CONFIG_INVALID.template, { summary: 'Invalid configuration', file: 'gateway.yaml', problems: '  - server.port: must be <= 65535' }),
    );
  });

  it('recognizes gateway errors by their global brand, so a second copy of core still counts', () => {
    /** What a plugin bundling its own copy of core throws: another class, the same brand. */
    const brand: unique symbol = Symbol.for('tts-gateway.error') as never;
    class OtherCopyError extends Error {
      readonly [brand] = true;
      readonly code = 'TTS_ERR_UPSTREAM_AUTH';
    }
    expect(GATEWAY_ERROR_MARK).to.equal(Symbol.for('tts-gateway.error'));
    expect(isGatewayError(new GatewayError('TTS_ERR_TIMEOUT', 'late'))).to.equal(true);
    expect(isGatewayError(new OtherCopyError('refused'))).to.equal(true);
    expect(isGatewayError(Object.assign(new Error('x'), { code: 'TTS_ERR_TIMEOUT' }))).to.equal(false);
    expect(isGatewayError({ [Symbol.for('tts-gateway.error')]: true, code: 'NOT_A_CODE' })).to.equal(false);
    expect(isGatewayError(undefined)).to.equal(false);
  });

  it('captures no stack for a refusal (4xx) but keeps one for a server fault, and leaves the stack limit as it was', () => {
    const limit = Error.stackTraceLimit;
    const refusal = gatewayError('TTS_ERR_NOT_FOUND', { what: 'route for GET /x' });
    const fault = gatewayError('TTS_ERR_TIMEOUT', { subject: 'The synthesis', limit: '1 ms' });
    expect(refusal.stack).to.equal('GatewayError: No such route for GET /x');
    expect(fault.stack?.split('\n').length).to.be.greaterThan(1);
    expect(fault.stack).to.include('error-catalogue.test');
    expect(Error.stackTraceLimit).to.equal(limit);
  });

  it('has plugins and the upstream helpers raise coded errors only through the templates', () => {
    const files = ['plugins', join('core', 'http')].flatMap((folder) => sourceFiles(join(projectRoot, folder)));
    const freeText = files.filter((file) => readFileSync(file, 'utf8').includes('new GatewayError('));
    expect(freeText.map((file) => file.slice(projectRoot.length + 1))).to.deep.equal([]);
  });
});
