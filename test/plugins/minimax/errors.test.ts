import { expect } from 'chai';
import nock from 'nock';
import { isTransientFailure } from '../../../core/resilience';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { expectScenarioFailure } from '../../support/scenario-failures';
import { baseResponseError, readBaseResponse, readMiniMaxError } from '../../../plugins/minimax/errors';
import { createProvider, synthesisRequest } from './harness';

const failure = (scenario: string) =>
  expectScenarioFailure('minimax', scenario, async () => (await createProvider()).synthesize(synthesisRequest()));

describe('minimax plugin: upstream failures', () => {
  it('maps base_resp 1004 on an HTTP 200 to an upstream credential error (502)', async () => {
    const error = await failure('auth-failure');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_AUTH');
    expect(error.status).to.equal(502);
    expect(error.details[0]).to.include({ providerCode: '1004' });
    expect(error.message).to.not.contain('mm-test-key');
  });

  it('maps an HTTP 401 the same way', async () => {
    expect((await failure('http-401')).code).to.equal('TTS_ERR_UPSTREAM_AUTH');
  });

  it('maps base_resp 1002 (RPM) to 429 with the documented 60 s Retry-After', async () => {
    const error = await failure('rate-limited');
    expect(error.code).to.equal('TTS_ERR_RATE_LIMITED');
    expect(error.status).to.equal(429);
    expect(error.retryAfterSeconds).to.equal(60);
  });

  it('maps invalid params (2013) to 502 with the provider message', async () => {
    const invalid = await failure('invalid-params');
    expect(invalid.code).to.equal('TTS_ERR_UPSTREAM');
    // The provider's own words go to the log, not to the client.
    expect(invalid.logContext?.providerMessage).to.include('out of range');
    expect(invalid.message).to.not.include('out of range');
  });

  it('maps insufficient balance (1008), a billing stop, to TTS_ERR_UPSTREAM_QUOTA (502, not retryable)', async () => {
    const balance = await failure('insufficient-balance');
    expect(balance.code).to.equal('TTS_ERR_UPSTREAM_QUOTA');
    expect(balance.status).to.equal(502);
    expect(balance.retryable).to.equal(false);
    expect(balance.retryAfterSeconds).to.equal(undefined);
    expect(balance.details[0]).to.include({ providerCode: '1008' });
    expect(balance.logContext).to.include({ providerMessage: 'insufficient balance' });
  });

  it('maps base_resp 1024 (internal error) on an HTTP 200, which MiniMax asks to retry, to a failure the gateway retries', async () => {
    const error = await failure('internal-error');
    expect(error.code).to.equal('TTS_ERR_UNAVAILABLE');
    expect(error.status).to.equal(503);
    expect(isTransientFailure(error)).to.equal(true);
    expect(error.details[0]).to.include({ providerCode: '1024' });
    expect(error.logContext).to.include({ providerMessage: 'internal error' });
  });

  for (const [scenario, code] of [
    ['quota-exhausted', '1028'],
    ['model-not-in-plan', '2061'],
    ['usage-window-exhausted', '2056'],
  ] as const) {
    it(`maps ${code} (${scenario}), the account's quota or plan, to TTS_ERR_UPSTREAM_QUOTA (502, not retried)`, async () => {
      const error = await failure(scenario);
      expect(error.code).to.equal('TTS_ERR_UPSTREAM_QUOTA');
      expect(error.status).to.equal(502);
      expect(error.retryable).to.equal(false);
      expect(isTransientFailure(error)).to.equal(false);
      expect(error.details[0]).to.include({ providerCode: code });
    });
  }

  it('maps 2042 ("You don\'t have access to this voice_id") on an HTTP 200 to a 403 refusal, not a 502 and not retried', async () => {
    const error = await expectScenarioFailure('minimax', 'voice-access-denied', async () =>
      (await createProvider()).synthesize(synthesisRequest({ voice: 'NarratorClone01' })),
    );
    expect(error.code).to.equal('TTS_ERR_FORBIDDEN');
    expect(error.status).to.equal(403);
    expect(error.retryable).to.equal(false);
    expect(isTransientFailure(error)).to.equal(false);
    expect(error.details[0]).to.include({ providerCode: '2042' });
    expect(error.logContext).to.include({ providerMessage: "You don't have access to this voice_id" });
  });

  it('maps 2038 (voice cloning disabled for the account, Chinese table) to the same 403 refusal, inside a 200 or an HTTP error', () => {
    const base = { status_code: 2038, status_msg: 'voice clone disabled' };
    const inside200 = baseResponseError(base, []);
    expect(inside200).to.include({ code: 'TTS_ERR_FORBIDDEN', status: 403, retryable: false });
    const onHttpError = readMiniMaxError({ status: 400, headers: new Headers(), text: JSON.stringify({ base_resp: base }) });
    expect(onHttpError).to.include({ code: 'TTS_ERR_FORBIDDEN', status: 403 });
  });

  it('classes 1030 (quota exhausted, as MiniMax\'s CLI reads it) with 1028', () => {
    expect(readBaseResponse({ status_code: 1030, status_msg: 'quota exhausted' })).to.include({ failure: 'quota', providerCode: '1030' });
  });

  it('maps base_resp 1033 (system error, "Please retry your requests later") on an HTTP 200 to a failure the gateway retries', async () => {
    const error = await failure('system-error');
    expect(error.code).to.equal('TTS_ERR_UNAVAILABLE');
    expect(error.status).to.equal(503);
    expect(isTransientFailure(error)).to.equal(true);
    expect(error.details[0]).to.include({ providerCode: '1033' });
  });

  it('keeps invalid params (2013) on an HTTP 200 out of the retries', async () => {
    expect(isTransientFailure(await failure('invalid-params'))).to.equal(false);
  });

  it('maps an upstream 502 page to TTS_ERR_UPSTREAM', async () => {
    const error = await failure('server-error');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM');
    expect(error.status).to.equal(502);
  });

  it('rejects a success answer without audio and a truncated body as bad responses', async () => {
    expect((await failure('malformed-no-audio')).code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
    expect((await failure('malformed-truncated')).code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('times out with TTS_ERR_TIMEOUT when MiniMax does not answer in timeoutMs', async () => {
    const scope = nock('https://api.minimax.io').post('/v1/t2a_v2').delay(500).reply(200, { base_resp: { status_code: 0 } });
    try {
      const provider = await createProvider({ timeoutMs: 50 });
      const error = await expectGatewayError(provider.synthesize(synthesisRequest()), 'TTS_ERR_TIMEOUT');
      expect(error.status).to.equal(504);
    } finally {
      scope.persist(false);
      nock.cleanAll();
    }
  });
});
