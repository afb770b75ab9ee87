export {
  upstreamFetch,
  upstreamAudio,
  parseUpstreamJson,
  badUpstreamResponse,
  upstreamFailure,
  upstreamAnswerError,
  type UpstreamRequest,
  type UpstreamResponse,
} from './upstream-fetch';
export { failureOfStatus, redactSecrets, upstreamError, type UpstreamFailureFacts } from './upstream-error';
export { parseRetryAfter } from './retry-after';
export type { UpstreamErrorAnswer, UpstreamErrorReading, UpstreamFailure } from './upstream-error-reading';
export { parseErrorJson, readCommonErrorBody, textOf, validationDetailMessage } from './common-error-body';
export { upstreamStream, upstreamAudioStream, awaitFirstChunk, type UpstreamStreamResponse } from './upstream-stream';
export { serverSentEvents, type ServerSentEvent } from './server-sent-events';
export { createPooledFetch, type PooledFetch } from './upstream-pool';
export { holdWritesToPassEnd } from './writes-at-pass-end';
export { boundedFetch, DEFAULT_MAX_RESPONSE_BYTES } from './bounded-fetch';
