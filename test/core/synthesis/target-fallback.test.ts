import { expect } from 'chai';
import { GatewayError, type RouteTarget } from '../../../core';
import { tryTargets } from '../../../core/synthesis/target-fallback';
import { expectGatewayError } from '../../support/gateway-error-assertions';

const targets: RouteTarget[] = [
  { model: 'preferred-1', voice: 'calm' },
  { model: 'backup-1', voice: 'calm' },
];
const neverStopped = () => false;
const ignoreFallback = () => undefined;

describe('core/synthesis tryTargets (a route falling back to its next target)', () => {
  it("answers the provider failure, not a later target's own refusal of the request (a voice or format it lacks)", async () => {
    const outage = new GatewayError('TTS_ERR_UNAVAILABLE', 'preferred is unavailable: its circuit is open', { retryAfterSeconds: 30 });
    const attempt = async (target: RouteTarget): Promise<never> => {
      throw target.model === 'preferred-1' ? outage : new GatewayError('TTS_ERR_VOICE_NOT_FOUND', "backup has no voice 'calm'");
    };
    const error = await expectGatewayError(tryTargets(targets, neverStopped, attempt, ignoreFallback));
    expect(error).to.equal(outage);
    expect(error.retryAfterSeconds).to.equal(30);
  });

  it("answers a later target's own failure of the gateway's or the operator's making as it is (its credentials refused)", async () => {
    const refused = new GatewayError('TTS_ERR_UPSTREAM_AUTH', "backup rejected the gateway's credentials");
    const attempt = async (target: RouteTarget): Promise<never> => {
      throw target.model === 'preferred-1' ? new GatewayError('TTS_ERR_UNAVAILABLE', 'preferred is down') : refused;
    };
    expect(await expectGatewayError(tryTargets(targets, neverStopped, attempt, ignoreFallback))).to.equal(refused);
  });

  it("falls to the next target on a provider failure its provider says not to retry (OpenAI's x-should-retry: false): that is about calling it again", async () => {
    const answered = { model: 'backup-1' };
    const attempt = async (target: RouteTarget): Promise<{ model: string }> => {
      if (target.model === 'preferred-1') throw new GatewayError('TTS_ERR_UPSTREAM', 'OpenAI answered HTTP 500', { details: [{ reason: 'upstream_status', upstreamStatus: 500 }], retryable: false });
      return answered;
    };
    expect(await tryTargets(targets, neverStopped, attempt, ignoreFallback)).to.equal(answered);
  });

  it("does not fall on a failure that would not fall because its provider says to retry it (x-should-retry: true on a bad key)", async () => {
    const refused = new GatewayError('TTS_ERR_UPSTREAM_AUTH', "OpenAI rejected the gateway's credentials", { retryable: true });
    const calls: string[] = [];
    const attempt = async (target: RouteTarget): Promise<never> => {
      calls.push(target.model);
      throw refused;
    };
    expect(await expectGatewayError(tryTargets(targets, neverStopped, attempt, ignoreFallback))).to.equal(refused);
    expect(calls).to.deep.equal(['preferred-1']);
  });

  it('answers the last provider failure when every target fails for the provider', async () => {
    const last = new GatewayError('TTS_ERR_TIMEOUT', 'backup did not answer');
    const attempt = async (target: RouteTarget): Promise<never> => {
      throw target.model === 'preferred-1' ? new GatewayError('TTS_ERR_UNAVAILABLE', 'preferred is down') : last;
    };
    expect(await expectGatewayError(tryTargets(targets, neverStopped, attempt, ignoreFallback))).to.equal(last);
  });

  it("answers the first target's own refusal as it is: nothing was tried after it", async () => {
    const refusal = new GatewayError('TTS_ERR_VALIDATION', 'bad text');
    const tried: string[] = [];
    const attempt = async (target: RouteTarget): Promise<never> => {
      tried.push(target.model);
      throw refusal;
    };
    expect(await expectGatewayError(tryTargets(targets, neverStopped, attempt, ignoreFallback))).to.equal(refusal);
    expect(tried).to.deep.equal(['preferred-1']);
  });

  it('answers a cancellation as it is, even after a provider failure', async () => {
    let stopped = false;
    const cancelled = new GatewayError('TTS_ERR_CANCELLED', 'The request was cancelled');
    const attempt = async (target: RouteTarget): Promise<never> => {
      if (target.model === 'preferred-1') throw new GatewayError('TTS_ERR_UNAVAILABLE', 'preferred is down');
      stopped = true;
      throw cancelled;
    };
    expect(await expectGatewayError(tryTargets(targets, () => stopped, attempt, ignoreFallback))).to.equal(cancelled);
  });
});
