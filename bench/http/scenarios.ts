/**
 * What the HTTP benchmark measures: each scenario is one gateway request and the request to the
 * stand-in (or the bare node server it also plays) that it is compared with in the same run.
 */
import type { LoadRequest } from './load';

export interface Scenario {
  readonly name: string;
  readonly direct: LoadRequest;
  readonly gateway: LoadRequest;
}

export interface Endpoints {
  /** http://127.0.0.1:<port> of the stand-in upstream. */
  readonly upstream: string;
  readonly gateway: string;
  readonly apiKey: string;
  /** The stand-in's model as the gateway serves it. */
  readonly model: string;
}

const TEXT = 'Hello from the benchmark. The stand-in answers the same speech every time.';

export const SCENARIO_NAMES = {
  ttsSync: 'tts-sync pass-through',
  cacheHit: 'tts-sync cache hit',
  speechAudio: '/v1/audio/speech audio',
  speechSse: '/v1/audio/speech sse',
  keyedGet: 'keyed GET /tools/models',
  notFound: '404 answer',
  unauthorized: '401 answer',
} as const;

function directSpeech(endpoints: Endpoints, sse: boolean): LoadRequest {
  const body = { model: 'tts-1', input: TEXT, voice: 'alloy', response_format: 'mp3', ...(sse ? { stream_format: 'sse' } : {}) };
  return { url: `${endpoints.upstream}/v1/audio/speech`, method: 'POST', body: JSON.stringify(body), expectStatus: 200 };
}

/** Pass-through scenarios opt out of the result cache: every request reaches the upstream. */
const NO_CACHE = { 'cache-control': 'no-store' };

function gatewaySpeech(endpoints: Endpoints, sse: boolean): LoadRequest {
  const body = { model: endpoints.model, input: TEXT, voice: 'alloy', response_format: 'mp3', ...(sse ? { stream_format: 'sse' } : {}) };
  return {
    url: `${endpoints.gateway}/v1/audio/speech`,
    method: 'POST',
    headers: { authorization: `Bearer ${endpoints.apiKey}`, ...NO_CACHE },
    body: JSON.stringify(body),
    expectStatus: 200,
  };
}

/** POST /api/v1/common/tts-sync of the same text every time. */
export function ttsSync(endpoints: Endpoints, useCache: boolean): LoadRequest {
  return {
    url: `${endpoints.gateway}/api/v1/common/tts-sync`,
    method: 'POST',
    headers: { 'x-api-key': endpoints.apiKey, ...(useCache ? {} : NO_CACHE) },
    body: JSON.stringify({ model: endpoints.model, text: TEXT, voice: 'alloy', format: 'mp3' }),
    expectStatus: 200,
  };
}

/** The scenarios: `/v1/audio/speech` only when the gateway has that route, a cache hit only when it has a result cache. */
export function scenarios(endpoints: Endpoints, has: { speechRoute: boolean; resultCache: boolean }): Scenario[] {
  const bareNotFound: LoadRequest = { url: `${endpoints.upstream}/api/v1/no-such-route`, method: 'GET', expectStatus: 404 };
  const list: Scenario[] = [{ name: SCENARIO_NAMES.ttsSync, direct: directSpeech(endpoints, false), gateway: ttsSync(endpoints, false) }];
  if (has.resultCache) list.push({ name: SCENARIO_NAMES.cacheHit, direct: directSpeech(endpoints, false), gateway: ttsSync(endpoints, true) });
  if (has.speechRoute) {
    list.push({ name: SCENARIO_NAMES.speechAudio, direct: directSpeech(endpoints, false), gateway: gatewaySpeech(endpoints, false) });
    list.push({ name: SCENARIO_NAMES.speechSse, direct: directSpeech(endpoints, true), gateway: gatewaySpeech(endpoints, true) });
  }
  list.push(
    {
      name: SCENARIO_NAMES.keyedGet,
      direct: { url: `${endpoints.upstream}/api/v1/tools/models`, method: 'GET', expectStatus: 200 },
      gateway: { url: `${endpoints.gateway}/api/v1/tools/models`, method: 'GET', headers: { 'x-api-key': endpoints.apiKey }, expectStatus: 200 },
    },
    {
      name: SCENARIO_NAMES.notFound,
      direct: bareNotFound,
      gateway: { url: `${endpoints.gateway}/api/v1/no-such-route`, method: 'GET', headers: { 'x-api-key': endpoints.apiKey }, expectStatus: 404 },
    },
    {
      name: SCENARIO_NAMES.unauthorized,
      direct: bareNotFound,
      gateway: { url: `${endpoints.gateway}/api/v1/tools/models`, method: 'GET', expectStatus: 401 },
    },
  );
  return list;
}

/** A probe for the `/v1/audio/speech` route: a gateway without it answers its 404 envelope. */
export function speechRouteProbe(endpoints: Endpoints): LoadRequest {
  return gatewaySpeech(endpoints, false);
}

/** A `/v1/audio/speech` scenario sent to the bare proxy (`bare-proxy.ts`) in place of the gateway: the floor. */
export function throughBareProxy(scenario: Scenario, endpoints: Endpoints, proxy: string): Scenario {
  return { name: scenario.name, direct: scenario.direct, gateway: { ...scenario.gateway, url: scenario.gateway.url.replace(endpoints.gateway, proxy) } };
}

/** The scenarios the bare proxy plays: the two pass-throughs of `/v1/audio/speech`. */
export const FLOOR_SCENARIOS: readonly string[] = [SCENARIO_NAMES.speechAudio, SCENARIO_NAMES.speechSse];
