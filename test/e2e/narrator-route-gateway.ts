import { faultGatewayForSuite, type FaultGateway } from './fault-gateway';
import type { ScriptedUpstream } from './scripted-upstream';

/**
 * The fallback route of the fallback tests: the stand-in's `tts-1` (voice `alloy`) first, then the
 * embedded eSpeak NG (`en-us`), both under the route's voice `default`.
 */
const NARRATOR_ROUTE = {
  name: 'narrator',
  strategy: 'fallback',
  targets: [
    { model: 'tts-1', voices: { default: 'alloy' } },
    { model: 'espeak-ng', voices: { default: 'en-us' } },
  ],
};

/** A fault gateway for the suite with the narrator route and `sections` (resilience, synthesis, cache...). */
export function narratorGatewayForSuite(upstream: ScriptedUpstream, sections: Record<string, unknown>): FaultGateway {
  return faultGatewayForSuite(upstream, { ...sections, routes: [NARRATOR_ROUTE] }, {}, [{ plugin: 'espeak' }]);
}
