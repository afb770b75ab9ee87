import { expect } from 'chai';
import nock from 'nock';
import { GatewayError, parseRetryAfter, upstreamAudio, upstreamFetch, upstreamStream, parseUpstreamJson, redactSecrets } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';

describe('core/http upstreamFetch', () => {
  afterEach(() => nock.cleanAll());

  const call = (path: string, timeoutMs = 2000) =>
    upstreamFetch({ provider: 'Acme', fetch, url: `https://api.acme.test${path}`, timeoutMs, secrets: ['sk-secret-123456'] });

  it('returns the body of a 2xx answer', async () => {
    nock('https://api.acme.test').get('/ok').reply(200, 'hello');
    const response = await call('/ok');
    expect(new TextDecoder().decode(response.body)).to.equal('hello');
  });

  it('maps 401 to a 502 credentials error without leaking the key', async () => {
    nock('https://api.acme.test').get('/x').reply(401, { error: { message: 'Incorrect API key provided: sk-secret-123456', code: 'invalid_api_key' } });
    const error = await expectGatewayError(call('/x'));
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_AUTH');
    expect(error.status).to.equal(502);
    expect(error.message).to.not.include('sk-secret-123456');
    expect(JSON.stringify(error.details)).to.not.include('sk-secret-123456');
  });

  it('maps 429 to 429 with the Retry-After seconds', async () => {
    nock('https://api.acme.test').get('/x').reply(429, { message: 'slow down' }, { 'Retry-After': '7' });
    const error = await expectGatewayError(call('/x'));
    expect(error.status).to.equal(429);
    expect(error.retryAfterSeconds).to.equal(7);
  });

  it('maps 5xx to 502 and keeps the upstream status in the details', async () => {
    nock('https://api.acme.test').get('/x').reply(503, 'busy');
    const error = await expectGatewayError(call('/x'));
    expect(error.status).to.equal(502);
    expect(error.details[0]).to.include({ upstreamStatus: 503 });
  });

  it('maps 402 Payment Required to TTS_ERR_UPSTREAM_QUOTA: 502, not retryable, no Retry-After', async () => {
    nock('https://api.acme.test').get('/x').reply(402, { error: { message: 'Insufficient credits', code: 'payment_required' } });
    const error = await expectGatewayError(call('/x'), 'TTS_ERR_UPSTREAM_QUOTA');
    expect(error).to.include({ status: 502, retryable: false, retryAfterSeconds: undefined });
    expect(error.details[0]).to.include({ upstreamStatus: 402, providerCode: 'payment_required' });
    expect(error.details[0]).to.not.have.property('providerMessage');
    expect(error.logContext).to.include({ providerMessage: 'Insufficient credits' });
  });

  it('reads a FastAPI validation list into the provider message', async () => {
    nock('https://api.acme.test').get('/x').reply(422, { detail: [{ loc: ['body', 'speed'], msg: 'Input should be less than or equal to 4', type: 'less_than_equal' }] });
    const error = await expectGatewayError(call('/x'), 'TTS_ERR_UPSTREAM');
    expect(error.details[0]).to.include({ providerCode: 'less_than_equal' });
    expect(error.logContext).to.include({ providerMessage: 'body.speed: Input should be less than or equal to 4' });
  });

  it("lets the plugin's mapError read its own body: class, code, message and a stated wait", async () => {
    nock('https://api.acme.test').get('/x').reply(400, { fault: { kind: 'Throttled', text: 'slow down, sk-secret-123456' } });
    const seen: number[] = [];
    const error = await expectGatewayError(
      upstreamFetch({
        provider: 'Acme',
        fetch,
        url: 'https://api.acme.test/x',
        timeoutMs: 2000,
        secrets: ['sk-secret-123456'],
        mapError: (answer) => {
          seen.push(answer.status);
          const fault = (JSON.parse(answer.text) as { fault: { kind: string; text: string } }).fault;
          return { failure: 'rate_limit', providerCode: fault.kind, providerMessage: fault.text, retryAfterSeconds: 9 };
        },
      }),
      'TTS_ERR_RATE_LIMITED',
    );
    expect(seen).to.deep.equal([400]);
    expect(error.retryAfterSeconds).to.equal(9);
    expect(error.details[0]).to.include({ upstreamStatus: 400, providerCode: 'Throttled' });
    expect(JSON.stringify(error.details)).to.not.include('sk-secret-123456');
  });

  it('keeps a Retry-After header over the wait a mapError reads from the body', async () => {
    nock('https://api.acme.test').get('/x').reply(429, '{}', { 'Retry-After': '4' });
    const error = await expectGatewayError(
      upstreamFetch({ provider: 'Acme', fetch, url: 'https://api.acme.test/x', timeoutMs: 2000, mapError: () => ({ retryAfterSeconds: 30 }) }),
      'TTS_ERR_RATE_LIMITED',
    );
    expect(error.retryAfterSeconds).to.equal(4);
  });

  it('passes a GatewayError returned by mapError through unchanged, and falls back to core when it returns nothing', async () => {
    const refused = new GatewayError('TTS_ERR_UNAVAILABLE', 'Acme refused the connection');
    nock('https://api.acme.test').get('/x').reply(403, '').get('/y').reply(403, { message: 'forbidden' });
    const mapError = (answer: { text: string }) => (answer.text === '' ? refused : undefined);
    expect(await expectGatewayError(upstreamFetch({ provider: 'Acme', fetch, url: 'https://api.acme.test/x', timeoutMs: 2000, mapError }))).to.equal(refused);
    const fallback = await expectGatewayError(upstreamFetch({ provider: 'Acme', fetch, url: 'https://api.acme.test/y', timeoutMs: 2000, mapError }), 'TTS_ERR_UPSTREAM_AUTH');
    expect(fallback.logContext).to.include({ providerMessage: 'forbidden' });
  });

  it('reads a streamed call\'s error answer with the same mapError', async () => {
    nock('https://api.acme.test').post('/stream').reply(429, { error: { code: 'insufficient_quota', message: 'out of credit' } });
    const error = await expectGatewayError(
      upstreamStream({
        provider: 'Acme',
        fetch,
        url: 'https://api.acme.test/stream',
        method: 'POST',
        timeoutMs: 2000,
        mapError: (answer) => ({ failure: JSON.parse(answer.text).error.code === 'insufficient_quota' ? 'quota' : undefined, providerCode: 'insufficient_quota' }),
      }),
      'TTS_ERR_UPSTREAM_QUOTA',
    );
    expect(error.retryAfterSeconds).to.equal(undefined);
  });

  it('maps a missed deadline to 504', async () => {
    nock('https://api.acme.test').get('/x').delay(500).reply(200, 'late');
    const error = await expectGatewayError(call('/x', 50));
    expect(error.status).to.equal(504);
  });

  it('maps a connection failure to 503', async () => {
    nock('https://api.acme.test').get('/x').replyWithError({ code: 'ECONNREFUSED', message: 'refused' });
    const error = await expectGatewayError(call('/x'));
    expect(error.status).to.equal(503);
  });

  it('reports a malformed JSON body as 502', () => {
    expect(() => parseUpstreamJson('Acme', new TextEncoder().encode('{oops'))).to.throw(GatewayError).with.property('status', 502);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('12')).to.equal(12);
    expect(parseRetryAfter(new Date(10_000 + 30_000).toUTCString(), 10_000)).to.equal(30);
    expect(parseRetryAfter('soon')).to.equal(undefined);
  });

  it('redacts key-like tokens', () => {
    expect(redactSecrets('bad key sk-proj-abcdefghijklmnop')).to.not.include('abcdefghijklmnop');
  });
});

describe('core/http redactSecrets', () => {
  it('hides a known secret also as a provider may echo it: JSON-escaped or URL-encoded', () => {
    const secret = 'wJal/rXUtn+FEMI"K7MDENG'; // an AWS secret's alphabet: '/' and '+'
    const echoed = [`{"detail":"bad secret ${JSON.stringify(secret).slice(1, -1)}"}`, `{"s":"${secret.replaceAll('/', '\\/')}"}`, `?key=${encodeURIComponent(secret)}`];
    for (const text of echoed) {
      const safe = redactSecrets(text, [secret]);
      expect(safe, text).to.include('[redacted]').and.not.include('rXUtn').and.not.include('K7MDENG');
    }
  });

  it('keeps long error names but hides key-shaped tokens', () => {
    const safe = redactSecrets('UnrecognizedClientException: token 0f3c9a8b7d6e5f4a3b2c1d0e9f8a7b6c is invalid');
    expect(safe).to.include('UnrecognizedClientException');
    expect(safe).to.not.include('0f3c9a8b7d6e5f4a3b2c1d0e9f8a7b6c');
  });
});

describe('core/http upstreamAudio', () => {
  const answer = (contentType: string, body: Uint8Array) => ({ status: 200, headers: new Headers({ 'content-type': contentType }), body });

  it('returns the bytes of an audio answer', () => {
    expect(upstreamAudio('Acme', answer('audio/mpeg', new Uint8Array([1, 2])))).to.deep.equal(new Uint8Array([1, 2]));
  });

  it('refuses a JSON or text body sent with a 2xx, and an empty one (502)', () => {
    for (const refused of [answer('application/json', new Uint8Array([123])), answer('text/html; charset=utf-8', new Uint8Array([60])), answer('audio/mpeg', new Uint8Array())]) {
      expect(() => upstreamAudio('Acme', refused)).to.throw(GatewayError).with.property('code', 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    }
  });
});
