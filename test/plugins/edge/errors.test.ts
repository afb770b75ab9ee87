import { expect } from 'chai';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { EdgeStandIn } from './stand-in';
import { createProvider, synthesisRequest } from './harness';

describe('edge plugin: refusals and failures', () => {
  let standIn: EdgeStandIn;
  beforeEach(async () => {
    standIn = await EdgeStandIn.start();
  });
  afterEach(() => standIn.close());

  it('answers 503 saying the service refused the connection when the upgrade gets 403', async () => {
    standIn.behaviour = 'refuse';
    const provider = await createProvider(standIn);
    const error = await expectGatewayError(provider.synthesize(synthesisRequest()), 'TTS_ERR_UNAVAILABLE');
    expect(error.status).to.equal(503);
    expect(error.message).to.include('Edge read-aloud is unavailable: the service refused the connection (HTTP 403)');
    expect(error.message).to.include('client');
    expect(error.message).to.include('may need an update');
    expect(error.details[0]).to.include({ reason: 'service_refused', upstreamStatus: 403 });
    expect(standIn.refusals).to.equal(1); // same clock: no pointless retry
    // An out-of-date client stays refused: neither the gateway's retries nor a client's SDK ask again.
    expect(error.retryable).to.equal(false);
  });

  it('answers 503 when the service closes the socket before the turn ends', async () => {
    standIn.behaviour = 'close-early';
    const provider = await createProvider(standIn);
    const error = await expectGatewayError(provider.synthesize(synthesisRequest()), 'TTS_ERR_UNAVAILABLE');
    expect(error.message).to.include('closed the socket');
    expect(error.retryable).to.equal(true);
  });

  it('answers 503 when the turn ends without audio', async () => {
    standIn.behaviour = 'no-audio';
    const provider = await createProvider(standIn);
    const error = await expectGatewayError(provider.synthesize(synthesisRequest()), 'TTS_ERR_UNAVAILABLE');
    expect(error.message).to.include('without audio');
  });

  it('answers 504 when the service never answers within timeoutMs', async () => {
    standIn.behaviour = 'silent';
    const provider = await createProvider(standIn, { timeoutMs: 200 });
    const error = await expectGatewayError(provider.synthesize(synthesisRequest()), 'TTS_ERR_TIMEOUT');
    expect(error.status).to.equal(504);
    expect(standIn.connections[0].messages).to.have.length(2);
  });

  it('cancels a turn in flight when the signal aborts', async () => {
    standIn.behaviour = 'silent';
    const provider = await createProvider(standIn);
    const controller = new AbortController();
    const pending = provider.synthesize(synthesisRequest({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    await expectGatewayError(pending, 'TTS_ERR_CANCELLED');
  });

  it('answers 503 when nothing listens at the endpoint', async () => {
    const provider = await createProvider(standIn, { baseUrl: 'ws://127.0.0.1:1/edge/v1' });
    const error = await expectGatewayError(provider.synthesize(synthesisRequest()), 'TTS_ERR_UNAVAILABLE');
    expect(error.details[0]).to.include({ reason: 'upstream_unreachable' });
  });

  it('refuses formats other than mp3', async () => {
    const provider = await createProvider(standIn);
    await expectGatewayError(provider.synthesize(synthesisRequest({ format: 'pcm' })), 'TTS_ERR_UNSUPPORTED_FORMAT');
    expect(standIn.connections).to.have.length(0);
  });
});
