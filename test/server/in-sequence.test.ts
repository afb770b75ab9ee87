import { expect } from 'chai';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { inSequence } from '../../server/middleware/in-sequence';

const request = {} as Request;
const response = {} as Response;

/** Runs the sequence; resolves with what it passed on to the app's `next` (or 'ended' when it did not). */
function run(handlers: RequestHandler[], waitMs = 20): Promise<{ passed: unknown[] | 'ended' }> {
  return new Promise((resolve) => {
    const next = ((...args: unknown[]) => resolve({ passed: args })) as NextFunction;
    inSequence(handlers)(request, response, next);
    setTimeout(() => resolve({ passed: 'ended' }), waitMs);
  });
}

describe('server/middleware inSequence', () => {
  it('runs each handler in order, then the app goes on', async () => {
    const order: string[] = [];
    const step = (name: string): RequestHandler => (_request, _response, next) => {
      order.push(name);
      next();
    };
    expect(await run([step('a'), step('b'), step('c')])).to.deep.equal({ passed: [] });
    expect(order).to.deep.equal(['a', 'b', 'c']);
  });

  it('goes on when a handler calls next later', async () => {
    const order: string[] = [];
    const later: RequestHandler = (_request, _response, next) => void setTimeout(() => (order.push('later'), next()), 5);
    const last: RequestHandler = (_request, _response, next) => (order.push('last'), next());
    expect(await run([later, last])).to.deep.equal({ passed: [] });
    expect(order).to.deep.equal(['later', 'last']);
  });

  it('ends with a handler that answers without calling next', async () => {
    let reached = false;
    const answers: RequestHandler = () => undefined;
    const after: RequestHandler = (_request, _response, next) => ((reached = true), next());
    expect(await run([answers, after])).to.deep.equal({ passed: 'ended' });
    expect(reached).to.equal(false);
  });

  it('hands an error passed or thrown to the app, and runs nothing after it', async () => {
    const failure = new Error('refused');
    let reached = false;
    const after: RequestHandler = (_request, _response, next) => ((reached = true), next());
    expect(await run([(_request, _response, next) => next(failure), after])).to.deep.equal({ passed: [failure] });
    expect(
      await run([
        () => {
          throw failure;
        },
        after,
      ]),
    ).to.deep.equal({ passed: [failure] });
    expect(reached).to.equal(false);
  });
  it('passes the rejection of an async handler on as an error, not as an unhandled rejection that would end the process', async () => {
    const failure = new Error('store down');
    const rejects: RequestHandler = async () => {
      throw failure;
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      expect(await run([rejects])).to.deep.equal({ passed: [failure] });
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).to.deep.equal([]);
  });
});
