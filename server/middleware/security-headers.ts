import helmet from 'helmet';
import type { RequestHandler } from 'express';

/**
 * helmet's defaults (nosniff, no X-Powered-By, frame and opener protections, ...) with a
 * Content-Security-Policy for the gateway's own pages (/docs, the playground): everything from
 * this origin only; images may be data: URLs (Swagger UI's icons), audio may be blob: URLs (a
 * page that plays streamed speech). Nothing from another origin, no inline script.
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'connect-src': ["'self'"],
        'font-src': ["'self'", 'data:'],
        'form-action': ["'self'"],
        'frame-ancestors': ["'self'"],
        'img-src': ["'self'", 'data:'],
        'media-src': ["'self'", 'blob:'],
        'object-src': ["'none'"],
        'script-src': ["'self'"],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'"],
        // Not upgrade-insecure-requests: a gateway on plain http (a LAN, localhost) would break its own pages.
      },
    },
  });
}
