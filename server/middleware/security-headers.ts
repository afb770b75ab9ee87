import helmet from 'helmet';
import type { RequestHandler } from 'express';

/**
 * helmet's defaults (nosniff, no X-Powered-By, frame and opener protections, ...) with a
 * Content-Security-Policy for the gateway's own pages (/docs, the playground): everything from
 * this origin only; images may be data: URLs (Swagger UI's icons), audio may be blob: URLs (a
 * page that plays streamed speech). Nothing from another origin, no inline script.
 */
export function securityHeaders(): RequestHandler {
  const headers = fixedHeadersOf(helmetPolicy());
  // helmet's answer is the same for every request: worked out once, then set in one loop
  // instead of a dozen middleware calls per request.
  return function setSecurityHeaders(_request, response, next) {
    for (const [name, value] of headers) response.setHeader(name, value);
    next();
  };
}

/** The headers a middleware sets on an answer, found by running it once on a stand-in response. */
function fixedHeadersOf(middleware: RequestHandler): [string, string][] {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: unknown) => void headers.set(name, String(value)),
    removeHeader: (name: string) => void headers.delete(name),
    getHeader: (name: string) => headers.get(name),
    locals: {},
  };
  let finished = false;
  const done = (error?: unknown): void => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    finished = true;
  };
  void middleware({ headers: {} } as never, response as never, done);
  // A policy that decided per request (or later) could not be fixed: fail at start, not silently.
  if (!finished) throw new Error('the security header policy did not answer at once');
  return [...headers];
}

function helmetPolicy(): RequestHandler {
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
