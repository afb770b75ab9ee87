import type { Request, Response } from 'express';
import type { Logger } from 'winston';
import { CONTENT_TYPES, type SynthesisResult, type SynthesisStream } from '../../core';
import { formatApplied } from './applied-header';
import { toGatewayError } from '../middleware/translate-error';
import { addAccessLogFields, requestIdOf } from '../request-context';
import { writeWithBackpressure } from './write-with-backpressure';
import { unexpectedErrorFields } from '../unexpected-error';

/** Header values must be visible ASCII; anything else is replaced rather than rejected. */
export const headerSafe = (value: string): string => value.replace(/[^\x20-\x7e]/g, '?').slice(0, 500);

/** The gateway's facts about a synthesis, sent with every synthesis answer. */
export function setSynthesisHeaders(response: Response, facts: Pick<SynthesisResult, 'applied' | 'servedBy' | 'instructionsIgnored' | 'cache'>): void {
  response.setHeader('X-TTS-Applied', formatApplied(facts.applied));
  if (facts.cache) response.setHeader('X-TTS-Cache', facts.cache === 'hit' ? 'hit' : 'miss');
  if (facts.servedBy) response.setHeader('X-TTS-Served-By', headerSafe(facts.servedBy));
  if (facts.instructionsIgnored) response.setHeader('X-TTS-Instructions', 'ignored; the model takes no instructions');
}

/** `Cache-Control: no-store` on a synthesis request opts out of the result cache. */
export function wantsCache(request: Request): boolean {
  return !/(^|,)\s*no-store\s*(,|$)/i.test(request.get('Cache-Control') ?? '');
}

/** Content-Type of streamed audio; raw pcm names its rate, as the download route does. */
export function streamContentType(stream: SynthesisStream): string {
  if (stream.format === 'pcm') return `${CONTENT_TYPES.pcm};rate=${stream.sampleRate ?? 24000};channels=1`;
  return CONTENT_TYPES[stream.format];
}

/**
 * The headers of every answer sent as it is made (audio, SSE): never stored, never sniffed, and
 * not buffered by nginx (`X-Accel-Buffering`), which otherwise holds each piece until its buffer
 * fills, and an SSE delta, or the first audio, arrives late.
 */
export function setStreamingHeaders(response: Response, contentType: string): void {
  response.setHeader('Content-Type', contentType);
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('X-Accel-Buffering', 'no');
}

/**
 * Sends the audio as it is made (chunked). A failure after the first bytes cannot become an
 * error answer any more: it is logged and the connection is cut, so the client sees a broken
 * transfer rather than a clean end that looks like success.
 */
export async function sendAudioStream(response: Response, stream: SynthesisStream, logger: Logger, contentType = streamContentType(stream)): Promise<boolean> {
  setSynthesisHeaders(response, stream);
  response.status(200);
  setStreamingHeaders(response, contentType);
  // No flushHeaders(): the first piece is ready already, and goes out in one write with them.
  try {
    for await (const piece of stream.chunks) {
      if (!(await writeWithBackpressure(response, piece))) return false;
    }
    response.end();
    return true;
  } catch (error) {
    failMidStream(response, error, logger);
    return false;
  } finally {
    addAccessLogFields(response, { audioBytes: stream.progress.bytes });
  }
}

/**
 * Logs a failure after the answer began and cuts the connection, once what was written has gone
 * out: the writes of this pass are corked (writeWithBackpressure), and a destroy drops corked
 * data, so a failure right after the first piece reached the client as no answer at all.
 */
export function failMidStream(response: Response, error: unknown, logger: Logger): void {
  logMidStreamFailure(response, error, logger);
  while (response.writableCorked > 0) response.uncork();
  response.destroy();
}

/** A client that went away is routine; a failure reported as such that breaks a started stream is a warning, anything else (a bug) an error. */
export function logMidStreamFailure(response: Response, error: unknown, logger: Logger): void {
  const gatewayError = toGatewayError(error);
  const code = gatewayError?.code ?? 'TTS_ERR_INTERNAL';
  addAccessLogFields(response, { streamError: code });
  if (code === 'TTS_ERR_CANCELLED' || response.destroyed) {
    logger.debug('stream stopped: the client went away', { requestId: requestIdOf(response) });
    return;
  }
  const requestId = requestIdOf(response);
  if (gatewayError) logger.warn('stream failed after it began', { requestId, code, errorMessage: gatewayError.message, ...gatewayError.logContext });
  // A failure nobody expected (a bug) is an error, logged as the error handler logs one.
  else logger.error('stream failed after it began', { requestId, code, ...unexpectedErrorFields(error) });
}
