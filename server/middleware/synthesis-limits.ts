import type { Request, RequestHandler, Response } from 'express';
import type { SynthesisLimiter } from '../../core';
import { setRateLimitHeaders } from '../rate-limit-headers';
import { clientLeftAfterAnswerBegan } from '../client-left-after-answer-began';
import { principalOf, setAdmittedAt, streamErrorOf } from '../request-context';

/** How many characters a request asks to synthesize (it may throw a 400 for unusable text). */
export type CharacterCount = (request: Request) => number;

/** Work for the request that may start while its limits are checked (and is wasted if they refuse it). */
export type WhileChecking = (request: Request, response: Response) => void;

/**
 * Requests per minute and characters per day, for any synthesis route: put it after the API
 * key check and the body parser, with the route's way of counting characters. A request over a
 * limit is answered 429 with Retry-After before any provider is called; every answer carries
 * the RateLimit-Policy and RateLimit headers. A request that fails gets its characters back, as
 * does one whose client left before any audio was sent.
 * `meanwhile` starts beside the check (the result cache's lookup: with Redis, the two round trips
 * overlap instead of following each other).
 */
export function limitSynthesis(limiter: SynthesisLimiter, charactersOf: CharacterCount, meanwhile?: WhileChecking): RequestHandler {
  return async function enforceSynthesisLimits(request, response, next) {
    const characters = charactersOf(request);
    const { account, keyId } = principalOf(response);
    const admission = limiter.admit({ accountId: account.id, keyId }, characters);
    meanwhile?.(request, response);
    const verdict = await admission;
    setRateLimitHeaders(response, verdict.limits);
    if (verdict.refusal) throw verdict.refusal;
    setAdmittedAt(response, verdict.admittedAt);
    // Refunds once: an error answer, a stream the gateway broke off, or a client that left before
    // any audio was sent. A client that leaves once the audio flows keeps its characters counted:
    // the provider made them and the client had them, and a refund would let a client take nearly
    // a whole stream and leave before its end, around the daily quota, again and again. A
    // refund the counters' store refused only leaves the count high until its window ends; left
    // unhandled, its rejection would end the process.
    const refund = (): void => void verdict.refundCharacters().catch(() => undefined);
    // A client that left during the check had its 'close' already: refunded now, and nothing starts for nobody.
    if (response.destroyed) {
      refund();
      return;
    }
    response.once('finish', () => {
      // An SSE stream that failed midway ends cleanly after its error event, at the 200 it began with.
      if (response.statusCode >= 400 || streamErrorOf(response) !== undefined) refund();
    });
    response.once('close', () => {
      if (!response.writableFinished && !clientLeftAfterAnswerBegan(response)) refund();
    });
    next();
  };
}
