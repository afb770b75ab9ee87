import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { CONTENT_TYPES, GatewayError, isAudioFormat, type AudioStore, type LocatedAudio } from '../../core';

function contentTypeOf(audio: LocatedAudio): string {
  if (!isAudioFormat(audio.extension)) return 'application/octet-stream';
  const base = CONTENT_TYPES[audio.extension];
  return audio.extension === 'pcm' ? `${base};rate=${audio.sampleRate};channels=1` : base;
}

/** Strong: a stored file never changes under its name, so name, size and mtime identify the bytes. */
function strongEtag(fileName: string, audio: LocatedAudio): string {
  const digest = createHash('sha256').update(`${fileName}:${audio.size}:${audio.mtime.getTime()}`).digest('base64url');
  return `"${digest.slice(0, 27)}"`;
}

const notFound = (): GatewayError =>
  new GatewayError('TTS_ERR_NOT_FOUND', 'No such audio file', { details: [{ field: 'file', reason: 'not found' }] });

function statusOf(error: Error): number | undefined {
  const status = (error as Error & { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/** `res.sendFile` does Range, If-Range, conditional GET and HEAD; our headers win over its own. */
function sendFile(response: Response, path: string): Promise<void> {
  const options = { etag: false, lastModified: true, cacheControl: false, acceptRanges: true, dotfiles: 'allow' as const };
  return new Promise((resolve, reject) => response.sendFile(path, options, (error) => (error ? reject(error) : resolve())));
}

/** Handler of GET and HEAD /api/v1/audio/download/:file. */
export function createAudioRoutes(audioStore: AudioStore, now: () => number = Date.now) {
  return {
    async download(request: Request<{ file: string }>, response: Response): Promise<void> {
      const fileName = request.params.file;
      const audio = await audioStore.locate(fileName);
      if (!audio) throw notFound();
      const maxAge = Math.max(0, Math.floor((audio.expiresAt.getTime() - now()) / 1000));
      response.setHeader('Content-Type', contentTypeOf(audio));
      response.setHeader('ETag', strongEtag(fileName, audio));
      response.setHeader('Cache-Control', `private, max-age=${maxAge}`);
      response.setHeader('Content-Disposition', `inline; filename="${fileName}"`);
      response.setHeader('X-Content-Type-Options', 'nosniff');
      try {
        await sendFile(response, audio.path);
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        // The client left mid-transfer: nothing to answer.
        if ((failure as NodeJS.ErrnoException).code === 'ECONNABORTED' || response.headersSent) return;
        const status = statusOf(failure);
        if (status === 416) {
          throw new GatewayError('TTS_ERR_RANGE_NOT_SATISFIABLE', 'The requested range is outside the file', {
            details: [{ field: 'Range', reason: 'unsatisfiable', size: audio.size }],
          });
        }
        // Swept between locate and send.
        if (status === 404 || (failure as NodeJS.ErrnoException).code === 'ENOENT') throw notFound();
        throw failure;
      }
    },
  };
}
