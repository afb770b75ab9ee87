import { gatewayError, type GatewayError } from '../errors';
import { isNodeBodyResponse } from './node-body-response';

/** The answer size a provider gets when its entry sets none (`maxResponseBytes`). */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

function tooLarge(provider: string, maxBytes: number): GatewayError {
  return gatewayError('TTS_ERR_UPSTREAM_BAD_RESPONSE', { provider, problem: `its answer is larger than the limit of ${maxBytes} bytes` }, {
    details: [{ reason: 'response_too_large', provider, maxResponseBytes: maxBytes }],
  });
}

/** The body as it arrives, failing with `failure` (and letting go of the rest) once more than `maxBytes` came. */
function countedBody(body: ReadableStream<Uint8Array>, maxBytes: number, failure: () => GatewayError): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let received = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done) {
        controller.close();
        return;
      }
      received += next.value.byteLength;
      if (received > maxBytes) {
        // Stop the transfer: the rest is never read, and what came is dropped with the stream.
        void reader.cancel().catch(() => undefined);
        controller.error(failure());
        return;
      }
      controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function isIdentityEncoded(headers: Headers): boolean {
  const encoding = headers.get('content-encoding');
  return encoding === null || encoding.trim().toLowerCase() === 'identity';
}

/**
 * A fetch whose answers are read to `maxBytes` at most: a declared Content-Length over it fails
 * before the body is read, a body that grows past it fails as soon as it does (502
 * TTS_ERR_UPSTREAM_BAD_RESPONSE), so one provider's answer never holds more memory than that.
 */
export function boundedFetch(fetchImpl: typeof fetch, maxBytes: number, provider: string): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    // The pooled fetch's answers always have a body, kept as a Node stream unless asked for as a web one.
    const pooled = isNodeBodyResponse(response) ? response : undefined;
    if (!pooled && !response.body) return response;
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > maxBytes) {
      if (pooled) pooled.discardBody();
      else await response.body?.cancel().catch(() => undefined);
      throw tooLarge(provider, maxBytes);
    }
    // A declared length within the bound is the bound already: the HTTP client reads that many
    // bytes and no more. Not so for a compressed answer, whose decoded body may be far larger.
    if (declared >= 0 && isIdentityEncoded(response.headers)) return response;
    return new Response(countedBody(response.body as ReadableStream<Uint8Array>, maxBytes, () => tooLarge(provider, maxBytes)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
