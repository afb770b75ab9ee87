import { expect } from 'chai';
import OpenAI from 'openai';
import { GatewayError } from '../../core';
import { serveForSdk } from './support/sdk-server';
import { buildTestApp, type TestApp, type TestAppOptions } from './support/test-app';

const SPEECH = { model: 'tts-1', input: 'Hello world', voice: 'alloy' } as const;

/**
 * The official SDK retries 408, 409, 429 and every 5xx (twice by default), waiting what
 * Retry-After says, unless the answer says `x-should-retry: false`. These tests drive the SDK
 * itself against the gateway, with its default retries.
 */
describe('server /v1 with the official SDK: its automatic retries', () => {
  let testApp: TestApp;
  let apiKey: string;
  let served: Awaited<ReturnType<typeof serveForSdk>>;
  let baseURL: string;

  async function start(options: TestAppOptions): Promise<void> {
    testApp = await buildTestApp(options);
    ({ apiKey } = await testApp.register());
    served = await serveForSdk(testApp);
    ({ baseURL } = served);
  }
  afterEach(async () => {
    await served.close();
    await testApp.close();
  });

  it('does not make the SDK wait until midnight and ask again when the daily character quota is used up', async () => {
    await start({ limits: { perKey: {}, charactersPerDay: 20 } });
    // The SDK logs its decision about an error answer before it sleeps for a retry.
    let decided: (message: string) => void = () => undefined;
    const decision = new Promise<string>((resolve) => (decided = resolve));
    const info = (message: string): void => {
      if (/failed with status/.test(message)) decided(message);
    };
    const silent = (): void => undefined;
    const controller = new AbortController();
    const client = new OpenAI({ apiKey, baseURL, logLevel: 'info', logger: { error: silent, warn: silent, info, debug: silent } });
    // Asks for more characters than the whole day allows: no wait can make it succeed.
    const call = client.audio.speech.create({ ...SPEECH, input: 'x'.repeat(50) }, { signal: controller.signal }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const message = await decision;
    const retries = message.split(' - ').at(-1) !== 'error; not retryable';
    // The SDK would now sleep for Retry-After (hours; the abort does not end that sleep), then ask again.
    if (retries) controller.abort();
    expect(message).to.match(/failed with status 429/);
    expect(message.split(' - ').at(-1)).to.equal('error; not retryable');
    const error = await call;
    expect(error).to.be.instanceOf(OpenAI.RateLimitError);
    // OpenAI's code for a used-up quota, which clients tell from a passing rate limit.
    expect(error).to.include({ code: 'insufficient_quota', type: 'insufficient_quota' });
  });

  const failureOf = (promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> =>
    promise.then(
      () => expect.fail('the call succeeded'),
      (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
    );

  it("still retries a provider's passing rate limit twice, told its wait to the millisecond (retry-after-ms), not a whole second", async () => {
    // As the OpenAI plugin reads a provider's `retry-after-ms: 250`.
    await start({
      stream: async () => {
        throw new GatewayError('TTS_ERR_RATE_LIMITED', 'slow down', { retryAfterSeconds: 0.25 });
      },
    });
    const error = await failureOf(new OpenAI({ apiKey, baseURL }).audio.speech.create(SPEECH));
    expect(error).to.be.instanceOf(OpenAI.RateLimitError);
    expect(testApp.synthesisCalls, 'requests that reached the synthesis').to.have.length(3);
    expect(error.headers?.get('retry-after')).to.equal('1');
    expect(error.headers?.get('retry-after-ms')).to.equal('250');
    expect(error.headers?.get('x-should-retry')).to.equal(null);
  });

  it('asks once for a provider whose circuit stays open for minutes (503, Retry-After over 60 s)', async () => {
    await start({
      stream: async () => {
        throw new GatewayError('TTS_ERR_UNAVAILABLE', 'its circuit is open', { details: [{ reason: 'circuit_open' }], retryAfterSeconds: 300 });
      },
    });
    const error = await failureOf(new OpenAI({ apiKey, baseURL }).audio.speech.create(SPEECH));
    expect(error).to.be.instanceOf(OpenAI.InternalServerError);
    expect(testApp.synthesisCalls, 'requests that reached the synthesis').to.have.length(1);
    expect(error.headers?.get('x-should-retry')).to.equal('false');
    expect(error.headers?.get('retry-after-ms')).to.equal(null);
  });

  for (const code of ['TTS_ERR_UPSTREAM_AUTH', 'TTS_ERR_UPSTREAM_QUOTA', 'TTS_ERR_INTERNAL'] as const) {
    it(`makes one synthesis, not three, for a final ${code}`, async () => {
      await start({
        stream: async () => {
          throw new GatewayError(code, 'the provider will answer the same again');
        },
      });
      const failures: string[] = [];
      testApp.accounts.recordFailedUsage = async (_accountId, model) => {
        failures.push(model);
      };
      const client = new OpenAI({ apiKey, baseURL });
      const error = await client.audio.speech.create(SPEECH).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).to.be.instanceOf(OpenAI.InternalServerError);
      expect(testApp.synthesisCalls, 'synthesis calls').to.have.length(1);
      expect(failures, 'failed usage rows').to.deep.equal(['tts-1']);
    });
  }
});
