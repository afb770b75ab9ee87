import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Request, RequestHandler, Response } from 'express';

/**
 * GET /: the playground, a plain static page (HTML, one script, one style sheet) that calls the
 * gateway's own API. The files live in server/playground/static, beside this module's source; the
 * compiled module (dist/server/playground) looks there too, so no build step copies them.
 */

const STATIC_FOLDER_CANDIDATES = [resolve(__dirname, 'static'), resolve(__dirname, '..', '..', '..', 'server', 'playground', 'static')];

interface StaticFile {
  readonly body: Buffer;
  readonly contentType: string;
}

function readStatic(name: string, contentType: string): StaticFile {
  for (const folder of STATIC_FOLDER_CANDIDATES) {
    try {
      return { body: readFileSync(resolve(folder, name)), contentType };
    } catch {
      // Not in this folder: try the next one.
    }
  }
  throw new Error(`The playground's file ${name} is missing (looked in ${STATIC_FOLDER_CANDIDATES.join(', ')})`);
}

export interface PlaygroundHandlers {
  readonly page: RequestHandler;
  readonly script: RequestHandler;
  readonly styles: RequestHandler;
}

const serve = (file: StaticFile) => (_request: Request, response: Response) => {
  // no-cache: a browser revalidates, so an upgraded gateway never runs an old script.
  response.setHeader('Cache-Control', 'no-cache');
  response.setHeader('Content-Type', file.contentType);
  response.send(file.body);
};

/** The playground's three files, read once when the app is built. */
export function createPlaygroundPage(): PlaygroundHandlers {
  return {
    page: serve(readStatic('index.html', 'text/html; charset=utf-8')),
    script: serve(readStatic('playground.js', 'text/javascript; charset=utf-8')),
    styles: serve(readStatic('playground.css', 'text/css; charset=utf-8')),
  };
}
