export { upstreamFetch, upstreamAudio, parseUpstreamJson, badUpstreamResponse, upstreamFailure, type UpstreamRequest, type UpstreamResponse } from './upstream-fetch';
export { parseRetryAfter, redactSecrets, upstreamStatusError } from './upstream-error';
export { upstreamStream, upstreamAudioStream, type UpstreamStreamResponse } from './upstream-stream';
