import { servedByName, type ModelRouter, type RememberedFacts, type SynthesisRequest } from '../core';

/**
 * Whether a remembered answer still answers a request (the result cache's `answersStill`). For a
 * `fallback` route, an answer made by a later target (the preferred one was failing then) does
 * only while the preferred target's provider still refuses the route's calls (its circuit open,
 * its trial not due yet; or its one trial under way, which the route's requests do not wait
 * for: they would fall to the later target anyway): once that provider takes calls again, the
 * request is a miss, and the preferred target's answer replaces the fallback's (or, should the
 * call fail, a fallback's answer again).
 * Every other answer (a real model's, an alias's, a load-balanced route's, the preferred target's
 * own) answers until it expires.
 */
export function fallbackAnswersWhileNeeded(router: Pick<ModelRouter, 'preferredTarget'>, refusesCalls: (model: string) => boolean) {
  return (request: SynthesisRequest, remembered: RememberedFacts): boolean => {
    const preferred = router.preferredTarget(request.model, request.voice);
    if (!preferred || remembered.servedBy === servedByName(preferred)) return true;
    return refusesCalls(preferred.model);
  };
}
