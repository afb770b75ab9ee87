import type { Request } from 'express';

/**
 * The route pattern that matched (`/api/v1/audio/download/:file`), never the URL: download
 * names are capabilities and must stay out of logs and metrics. Undefined when no route matched.
 */
export function routePatternOf(request: Request): string | undefined {
  const routePath: unknown = request.route?.path;
  return typeof routePath === 'string' ? `${request.baseUrl}${routePath}` : undefined;
}
