import cors from 'cors';
import type { RequestHandler } from 'express';
import type { CorsConfig } from '../../config/types';

/**
 * Response headers a browser script may read. Every `X-TTS-*` header the gateway sends must
 * be here (a test scans server/ for them): CORS has no wildcard for header names.
 */
export const EXPOSED_HEADERS: readonly string[] = [
  'X-Request-Id',
  'X-TTS-Applied',
  'X-TTS-Served-By',
  'X-TTS-Cache',
  'X-TTS-Instructions',
  'Retry-After',
  'X-Should-Retry',
  'Retry-After-Ms',
  'RateLimit',
  'RateLimit-Policy',
  'Content-Disposition',
  'Content-Range',
  'Content-Length',
  'Accept-Ranges',
  // A script resuming a download sends the file's ETag back in If-Range.
  'ETag',
];

/**
 * Request headers a cross-origin call may send: the gateway's own, and what the official OpenAI
 * SDK adds to every call (its `X-Stainless-*` facts, the organization and project it names), so
 * that a browser app using the SDK on `/v1` passes its preflight.
 */
export const ALLOWED_HEADERS: readonly string[] = [
  'X-API-Key',
  'Authorization',
  'Content-Type',
  'X-Request-Id',
  'Range',
  // Resuming and revalidating a download (not CORS-safelisted, so each needs the preflight's leave).
  'If-Range',
  'If-None-Match',
  'If-Modified-Since',
  'If-Match',
  'If-Unmodified-Since',
  'Cache-Control',
  'User-Agent',
  'OpenAI-Organization',
  'OpenAI-Project',
  'X-Stainless-Arch',
  'X-Stainless-Lang',
  'X-Stainless-OS',
  'X-Stainless-Package-Version',
  'X-Stainless-Retry-Count',
  'X-Stainless-Runtime',
  'X-Stainless-Runtime-Version',
  'X-Stainless-Timeout',
];

/** How long a browser may cache a preflight answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS for browser apps on other origins (`server.cors.origins`). None by default: then no
 * CORS header is sent and browsers keep other origins out. Keys travel in headers, never in
 * cookies, so credentials mode is not needed and not allowed.
 */
export function corsPolicy(config: CorsConfig): RequestHandler | undefined {
  if (config.origins !== '*' && config.origins.length === 0) return undefined;
  return cors({
    origin: config.origins === '*' ? '*' : [...config.origins],
    methods: ['GET', 'HEAD', 'POST', 'DELETE'],
    allowedHeaders: [...ALLOWED_HEADERS],
    exposedHeaders: [...EXPOSED_HEADERS],
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    credentials: false,
  });
}
