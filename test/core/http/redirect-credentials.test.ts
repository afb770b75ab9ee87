import { expect } from 'chai';
import type { IncomingHttpHeaders } from 'node:http';
import { createPooledFetch, upstreamFetch, type PooledFetch } from '../../../core';
import { ElevenLabsClient } from '../../../plugins/elevenlabs/client';
import type { ElevenLabsOptions } from '../../../plugins/elevenlabs/options-schema';
import { startUpstream } from './local-upstream';

/**
 * A provider (or whoever answers in its name: a plain-http base URL, a proxy, a compromised
 * self-hosted server) that redirects the gateway to another origin must not be handed the
 * operator's key. fetch drops only `Authorization` there; providers take keys in their own headers.
 */
describe('core/http: a redirect to another origin carries no key', () => {
  let pooled: PooledFetch;
  let provider: Awaited<ReturnType<typeof startUpstream>>;
  let elsewhere: Awaited<ReturnType<typeof startUpstream>>;
  let seenElsewhere: IncomingHttpHeaders[];

  beforeEach(async () => {
    pooled = createPooledFetch();
    seenElsewhere = [];
    elsewhere = await startUpstream((request, body, response) => {
      seenElsewhere.push(request.headers);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"models":[]}');
    });
    provider = await startUpstream((request, body, response) => {
      if (request.url?.startsWith('/same')) response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(request.headers));
      else response.writeHead(307, { location: request.url === '/here' ? '/same' : `${elsewhere.base}/collect` }).end();
    });
  });
  afterEach(async () => {
    await pooled.close();
    await provider.close();
    await elsewhere.close();
  });

  it("drops every provider's key header, and keeps what describes the call", async () => {
    const keys = {
      'xi-api-key': 'sk_elevenlabs_secret',
      'x-goog-api-key': 'AIzaGoogleSecret',
      'Ocp-Apim-Subscription-Key': 'azure-secret-0123456789',
      'X-Amz-Security-Token': 'aws-session-secret',
      authorization: 'Bearer openai-secret',
    };
    await upstreamFetch({
      provider: 'Test',
      fetch: pooled.fetch,
      url: `${provider.base}/synthesize`,
      method: 'POST',
      headers: { ...keys, 'content-type': 'application/json', accept: 'audio/*' },
      body: '{"text":"hi"}',
      timeoutMs: 5000,
    });
    expect(seenElsewhere).to.have.length(1);
    for (const name of Object.keys(keys)) expect(seenElsewhere[0], name).to.not.have.property(name.toLowerCase());
    expect(JSON.stringify(seenElsewhere[0])).to.not.include('secret');
    expect(seenElsewhere[0]).to.include({ 'content-type': 'application/json', accept: 'audio/*' });
  });

  it('keeps the key on a redirect within the same origin', async () => {
    const answer = await upstreamFetch({ provider: 'Test', fetch: pooled.fetch, url: `${provider.base}/here`, headers: { 'xi-api-key': 'sk_same_origin' }, timeoutMs: 5000 });
    expect(JSON.parse(new TextDecoder().decode(answer.body))).to.include({ 'xi-api-key': 'sk_same_origin' });
  });

  it("never sends the ElevenLabs plugin's key to the host its API redirects to", async () => {
    const options = { baseUrl: provider.base, apiKey: 'sk_elevenlabs_operator_key', timeoutMs: 5000 } as ElevenLabsOptions;
    await new ElevenLabsClient(options, pooled.fetch).getJson('/v1/models');
    expect(seenElsewhere).to.have.length(1);
    expect(JSON.stringify(seenElsewhere[0])).to.not.include('sk_elevenlabs_operator_key');
  });
});
