import type { HeaderDescription } from './route-description';

/** Headers of every download answer of the file (200, 206, 304, and HEAD); server/routes/audio-routes.ts sets them. */
export const DOWNLOAD_HEADERS: Readonly<Record<string, HeaderDescription>> = {
  ETag: { description: 'A strong validator of the file, for `If-Match`, `If-None-Match` and `If-Range`', schema: { type: 'string' } },
  'Last-Modified': { description: 'When the file was written (renewed by a result-cache hit)', schema: { type: 'string' } },
  'Cache-Control': { description: '`private, max-age=<seconds until the file expires>`', schema: { type: 'string' } },
  'Content-Disposition': { description: '`inline; filename="<file>"`', schema: { type: 'string' } },
  'Accept-Ranges': { description: '`bytes`', schema: { const: 'bytes' } },
};

export const CONTENT_RANGE_HEADER: Readonly<Record<string, HeaderDescription>> = {
  'Content-Range': { description: '`bytes <first>-<last>/<size>`', schema: { type: 'string' } },
};
