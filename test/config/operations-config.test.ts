import { expect } from 'chai';
import { ConfigError } from '../../config';
import { loadYaml, rejection } from './config-test-helpers';

describe('config: CORS, metrics and the database URL in YAML', () => {
  it('has no CORS origins, metrics on and no metrics token by default', async () => {
    const config = await loadYaml('server:\n  port: 8080\n');
    expect(config.server.cors).to.deep.equal({ origins: [] });
    expect(config.metrics).to.deep.equal({ enabled: true });
  });

  it('takes a list of origins, or "*"', async () => {
    const listed = await loadYaml('server:\n  cors:\n    origins:\n      - https://app.example.com\n      - http://localhost:3000\n');
    expect(listed.server.cors.origins).to.deep.equal(['https://app.example.com', 'http://localhost:3000']);
    const any = await loadYaml('server:\n  cors:\n    origins: "*"\n');
    expect(any.server.cors.origins).to.equal('*');
  });

  it('refuses an origin with a path or a trailing slash, and any other word, saying what an origin is', async () => {
    const error = (await rejection(loadYaml('server:\n  cors:\n    origins:\n      - https://app.example.com/\n      - app.example.com\n'))) as ConfigError;
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.problems).to.deep.equal([
      'server.cors.origins[0]: must be an origin such as https://app.example.com (scheme, host and optional port; no path, no trailing slash)',
      'server.cors.origins[1]: must be an origin such as https://app.example.com (scheme, host and optional port; no path, no trailing slash)',
    ]);
    const word = (await rejection(loadYaml('server:\n  cors:\n    origins: all\n'))) as ConfigError;
    expect(word.problems).to.deep.equal(['server.cors.origins: must be "*" (any origin) or a list of origins']);
  });

  it('takes a metrics token, and can turn metrics off', async () => {
    const config = await loadYaml('metrics:\n  token: scrape-secret\n');
    expect(config.metrics).to.deep.equal({ enabled: true, token: 'scrape-secret' });
    expect((await loadYaml('metrics:\n  enabled: false\n')).metrics.enabled).to.equal(false);
    const empty = (await rejection(loadYaml('metrics:\n  token: ""\n'))) as ConfigError;
    expect(empty.problems[0]).to.match(/^metrics\.token: /);
    // A token no Authorization header could carry would lock every scraper out for good.
    const spaced = (await rejection(loadYaml('metrics:\n  token: "scrape secret"\n'))) as ConfigError;
    expect(spaced.problems).to.deep.equal(['metrics.token: must be a token of visible characters without spaces (it is sent as `Authorization: Bearer <token>`)']);
  });

  it('reads the in-memory database URL when it is quoted, as the README writes it', async () => {
    const config = await loadYaml('database:\n  url: "sqlite::memory:"\n');
    expect(config.database.url).to.equal('sqlite::memory:');
    // Unquoted, the trailing colon makes it a YAML error, which is why the README quotes it.
    const unquoted = await rejection(loadYaml('database:\n  url: sqlite::memory:\n'));
    expect(unquoted.message).to.include('Could not read the configuration');
    expect(unquoted.message).to.include('bad indentation of a mapping entry');
  });
});
