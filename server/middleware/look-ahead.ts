import type { Request } from 'express';
import type { AppDependencies, SynthesisRequest } from '../app-dependencies';
import { setResultLookup } from '../request-context';
import { wantsCache } from '../streaming/send-stream';
import type { WhileChecking } from './synthesis-limits';

/**
 * The result cache's lookup for a synthesis request, to start while its limits are checked; the
 * synthesis call finds it on the answer (`resultLookupOf`). Nothing without a cache, or for a
 * client that opted out of it (`Cache-Control: no-store`).
 */
export function lookAhead(lookUpResult: AppDependencies['lookUpResult'], requestOf: (request: Request) => SynthesisRequest): WhileChecking | undefined {
  if (!lookUpResult) return undefined;
  return (request, response) => {
    if (wantsCache(request)) setResultLookup(response, lookUpResult(requestOf(request)));
  };
}
