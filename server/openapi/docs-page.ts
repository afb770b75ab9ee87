import { dirname, join } from 'node:path';
import type { Request, RequestHandler, Response } from 'express';

/**
 * GET /docs: Swagger UI from the swagger-ui-dist package, served by the gateway itself (no CDN,
 * works offline), reading the gateway's own /openapi.json. Paths are relative so the page also
 * works behind a reverse proxy that mounts the gateway under a prefix.
 */

const SWAGGER_UI_FOLDER = dirname(require.resolve('swagger-ui-dist/package.json'));
/** Only what the page loads; the package's other files (its demo page, source maps) stay private. */
const ASSETS: ReadonlySet<string> = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-16x16.png', 'favicon-32x32.png']);

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tts-gateway API</title>
<link rel="stylesheet" href="assets/swagger-ui.css">
<link rel="icon" type="image/png" sizes="32x32" href="assets/favicon-32x32.png">
</head>
<body>
<main id="swagger-ui"></main>
<script src="assets/swagger-ui-bundle.js"></script>
<script src="docs.js"></script>
</body>
</html>
`;

// A file, not an inline script, so the Content-Security-Policy needs no 'unsafe-inline'.
// validatorUrl: null keeps Swagger UI from asking an outside validator about the document.
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: new URL('../openapi.json', window.location.href).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

const ONE_DAY_SECONDS = 86_400;

export interface DocsPageHandlers {
  readonly page: RequestHandler;
  readonly initializer: RequestHandler;
  readonly asset: RequestHandler<{ file: string }>;
}

export function createDocsPage(): DocsPageHandlers {
  return {
    page(request: Request, response: Response) {
      // The page's relative links need the trailing slash; a relative Location keeps a proxy's prefix.
      if (!request.path.endsWith('/')) {
        response.redirect(301, 'docs/');
        return;
      }
      response.setHeader('Cache-Control', 'no-cache');
      response.type('html').send(PAGE);
    },
    initializer(request: Request, response: Response) {
      response.setHeader('Cache-Control', 'no-cache');
      response.type('text/javascript').send(INITIALIZER);
    },
    asset(request, response, next) {
      const file = request.params.file;
      if (!ASSETS.has(file)) {
        next();
        return;
      }
      response.sendFile(join(SWAGGER_UI_FOLDER, file), { maxAge: ONE_DAY_SECONDS * 1000, dotfiles: 'deny' }, (error) => {
        if (error && !response.headersSent) next(error);
      });
    },
  };
}
