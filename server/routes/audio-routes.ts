import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { CONTENT_TYPES, GatewayError, gatewayError, isAudioFormat, type AudioStore, type LocatedAudio } from '../../core';
import { checkDownloadPreconditions } from './download-preconditions';
import { decideRange } from './download-range';
import { FirstByteDeadline } from './first-byte-deadline';

function contentTypeOf(audio: LocatedAudio): string {
  if (!isAudioFormat(audio.extension)) return 'application/octet-stream';
  const base = CONTENT_TYPES[audio.extension];
  return audio.extension === 'pcm' ? `${base};rate=${audio.sampleRate};channels=1` : base;
}

/**
 * Strong: a stored file never changes under its name (names are fresh and created exclusively),
 * so name and size identify the bytes. Not its time: a result-cache hit renews the file's time
 * (its lifetime), and a resumed or revalidated download must still match the same bytes.
 */
function strongEtag(fileName: string, audio: LocatedAudio): string {
  const digest = createHash('sha256').update(`${fileName}:${audio.size}`).digest('base64url');
  return `"${digest.slice(0, 27)}"`;
}

const notFound = (): GatewayError =>
  gatewayError('TTS_ERR_NOT_FOUND', { what: 'audio file' }, { details: [{ field: 'file', reason: 'not found' }] });

/** Headers of a file answer; a refused range drops them again. */
const FILE_HEADERS = ['Content-Type', 'ETag', 'Cache-Control', 'Content-Disposition', 'Last-Modified', 'Accept-Ranges'];

export interface AudioRoutesOptions {
  /** `storage.readTimeout`: how long the store may take to find a file and start sending it. */
  readonly readTimeoutMs: number;
  /** Clock, replaceable in tests. */
  readonly now?: () => number;
}

/**
 * Handler of GET and HEAD /api/v1/audio/download/:file. The bytes come from the AudioStore
 * (a folder or a bucket) through the gateway, with Range, If-Range and conditional GET
 * (If-Match and If-Unmodified-Since: 412; If-None-Match and If-Modified-Since: 304).
 */
export function createAudioRoutes(audioStore: AudioStore, options: AudioRoutesOptions) {
  const now = options.now ?? Date.now;

  async function answer(request: Request<{ file: string }>, response: Response, deadline: FirstByteDeadline): Promise<void> {
    const fileName = request.params.file;
    const audio = await deadline.step(audioStore.locate(fileName, { signal: deadline.signal }));
    if (!audio) throw notFound();
    const etag = strongEtag(fileName, audio);
    const maxAge = Math.max(0, Math.floor((audio.expiresAt.getTime() - now()) / 1000));
    response.setHeader('Content-Type', contentTypeOf(audio));
    response.setHeader('ETag', etag);
    response.setHeader('Cache-Control', `private, max-age=${maxAge}`);
    response.setHeader('Content-Disposition', `inline; filename="${fileName}"`);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Last-Modified', audio.mtime.toUTCString());
    // The link is the capability: a page on another origin may play it in an <audio> element.
    response.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    response.setHeader('Accept-Ranges', 'bytes');
    checkDownloadPreconditions(request, etag, audio.mtime);
    if (request.fresh) {
      response.status(304).end();
      return;
    }
    const decision = decideRange(request, audio.size, etag, audio.mtime);
    if (decision.kind === 'unsatisfiable') {
      for (const header of FILE_HEADERS) response.removeHeader(header);
      response.setHeader('Content-Range', `bytes */${audio.size}`);
      throw new GatewayError('TTS_ERR_RANGE_NOT_SATISFIABLE', 'The requested range is outside the file', {
        details: [{ field: 'Range', reason: 'unsatisfiable', size: audio.size }],
      });
    }
    const range = decision.kind === 'partial' ? decision.range : undefined;
    if (range) {
      response.status(206);
      response.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${audio.size}`);
    }
    response.setHeader('Content-Length', String(range ? range.end - range.start + 1 : audio.size));
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    // Swept between locate and open: open() rejects with a 404, before any byte is sent.
    const bytes = await deadline.step(audio.open(range, { signal: deadline.signal }));
    deadline.met();
    try {
      await pipeline(bytes, response);
    } catch (error) {
      // The client left mid-transfer, or the store failed after the headers went: nothing to answer.
      if (response.headersSent) {
        response.destroy();
        return;
      }
      throw error;
    }
  }

  return {
    async download(request: Request<{ file: string }>, response: Response): Promise<void> {
      const deadline = new FirstByteDeadline(response, options.readTimeoutMs);
      try {
        await answer(request, response, deadline);
      } finally {
        deadline.dispose();
      }
    },
  };
}
