import type { S3StorageConfig } from '../config/types';

/** The request handler options the S3 client takes (@smithy/node-http-handler's), those used here. */
interface S3RequestHandlerOptions {
  readonly connectionTimeout: number;
  readonly requestTimeout: number;
  readonly throwOnRequestTimeout: boolean;
}

/**
 * The S3 client's time limits, so that a stalled bucket fails a request instead of holding it:
 * what has no deadline of its own (the sweeper's List and Delete, the readiness probe's Put)
 * would otherwise wait for ever. Each of the SDK's attempts (3 by default) gets them.
 *
 * - `connectionTimeout`: the TCP (and TLS) connection.
 * - `requestTimeout`: from sending to the answer's headers (a PUT's upload included); in this
 *   SDK (@smithy/node-http-handler 4) it only warns unless `throwOnRequestTimeout` is set.
 *
 * No `socketTimeout`: it is an idle limit that stays on while a body streams, so a download whose
 * client pauses (an audio element with enough buffered) would be cut; a download's wait for its
 * first byte has `storage.readTimeout`, and its transfer ends when its client leaves.
 */
export function s3RequestHandler(s3: Pick<S3StorageConfig, 'connectionTimeoutMs' | 'requestTimeoutMs'>): S3RequestHandlerOptions {
  return { connectionTimeout: s3.connectionTimeoutMs, requestTimeout: s3.requestTimeoutMs, throwOnRequestTimeout: true };
}
