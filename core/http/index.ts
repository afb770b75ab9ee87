export { upstreamFetch, upstreamAudio, parseUpstreamJson, badUpstreamResponse, type UpstreamRequest, type UpstreamResponse } from './upstream-fetch';
export { parseRetryAfter, redactSecrets, upstreamStatusError } from './upstream-error';
