import { expect } from 'chai';
import type { Request, Response } from 'express';
import { GatewayError, type LimitVerdict, type SynthesisLimiter } from '../../core';
import { limitSynthesis } from '../../server/middleware/synthesis-limits';

/** A limiter whose verdict comes when the test says. */
function heldLimiter() {
  let decide!: (verdict: LimitVerdict) => void;
  const limiter = { admit: () => new Promise<LimitVerdict>((resolve) => (decide = resolve)) } as unknown as SynthesisLimiter;
  return { limiter, decide: (verdict: LimitVerdict) => decide(verdict) };
}

function fakeExchange() {
  const headers = new Map<string, string>();
  const response = {
    locals: { principal: { account: { id: 'account-1' }, keyId: 'key-1' } },
    setHeader: (name: string, value: string) => headers.set(name, value),
    once: () => response,
  } as unknown as Response;
  return { request: { body: {} } as Request, response, headers };
}

const ADMITTED: LimitVerdict = { limits: [], refundCharacters: async () => undefined, admittedAt: 0 };

describe('server: the limit check and the work started beside it', () => {
  it('starts the work before the verdict, and goes on once admitted', async () => {
    const { limiter, decide } = heldLimiter();
    const events: string[] = [];
    const middleware = limitSynthesis(limiter, () => 5, () => events.push('looked ahead'));
    const { request, response } = fakeExchange();
    const done = middleware(request, response, () => events.push('next')) as unknown as Promise<void>;
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).to.deep.equal(['looked ahead']);
    decide(ADMITTED);
    await done;
    expect(events).to.deep.equal(['looked ahead', 'next']);
  });

  it('still refuses a request over its limits, whatever was started beside the check', async () => {
    const { limiter, decide } = heldLimiter();
    const events: string[] = [];
    const middleware = limitSynthesis(limiter, () => 5, () => events.push('looked ahead'));
    const { request, response } = fakeExchange();
    const done = (middleware(request, response, () => events.push('next')) as unknown as Promise<void>).catch((error: unknown) => error);
    decide({ ...ADMITTED, refusal: new GatewayError('TTS_ERR_RATE_LIMITED', 'Too many requests', { retryAfterSeconds: 30 }) });
    const refusal = await done;
    expect(refusal).to.be.instanceOf(GatewayError).with.property('status', 429);
    expect(events).to.deep.equal(['looked ahead']);
  });

  it('checks the text before starting anything: a bad text is a 400 with nothing looked up or counted', () => {
    const { limiter } = heldLimiter();
    let admitted = false;
    const counting = { admit: (...args: unknown[]) => ((admitted = true), (limiter.admit as (...a: unknown[]) => unknown)(...args)) } as unknown as SynthesisLimiter;
    const events: string[] = [];
    const middleware = limitSynthesis(counting, () => {
      throw new GatewayError('TTS_ERR_VALIDATION', 'text is empty');
    }, () => events.push('looked ahead'));
    const { request, response } = fakeExchange();
    const result = (middleware(request, response, () => undefined) as unknown as Promise<void>).catch((error: unknown) => error);
    return result.then((error) => {
      expect(error).to.be.instanceOf(GatewayError).with.property('status', 400);
      expect({ admitted, events }).to.deep.equal({ admitted: false, events: [] });
    });
  });

  it('takes a refund the counters refused as lost, not as an unhandled rejection that would end the process', async () => {
    const listeners = new Map<string, () => void>();
    const response = {
      locals: { principal: { account: { id: 'account-1' }, keyId: 'key-1' } },
      setHeader: () => undefined,
      statusCode: 503,
      writableFinished: true,
      once: (event: string, listener: () => void) => (listeners.set(event, listener), response),
    } as unknown as Response;
    let refunds = 0;
    const limiter = {
      admit: async (): Promise<LimitVerdict> => ({
        limits: [],
        admittedAt: 0,
        refundCharacters: async () => {
          refunds += 1;
          throw new Error('the counters store is down');
        },
      }),
    } as unknown as SynthesisLimiter;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      await (limitSynthesis(limiter, () => 5)({ body: {} } as Request, response, () => undefined) as unknown as Promise<void>);
      listeners.get('finish')?.();
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(refunds).to.equal(1);
    expect(unhandled).to.deep.equal([]);
  });
  it('refunds a client that left while its limits were checked, and starts nothing for it (its close came before any listener)', async () => {
    const { limiter, decide } = heldLimiter();
    const response = {
      locals: { principal: { account: { id: 'account-1' }, keyId: 'key-1' } },
      setHeader: () => undefined,
      destroyed: false,
      writableFinished: false,
      once: () => response,
    } as unknown as Response & { destroyed: boolean };
    let refunds = 0;
    let nextCalls = 0;
    const done = limitSynthesis(limiter, () => 5)({ body: {} } as Request, response, () => (nextCalls += 1)) as unknown as Promise<void>;
    response.destroyed = true;
    decide({ limits: [], admittedAt: 0, refundCharacters: async () => void (refunds += 1) });
    await done;
    expect({ refunds, nextCalls }).to.deep.equal({ refunds: 1, nextCalls: 0 });
  });
});
