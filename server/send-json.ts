import type { Response } from 'express';

/**
 * Answers `body` as JSON with Node's own calls. Express's
 * `res.json` would also look the type up in its MIME table, parse it again to add the charset
 * and weigh the request's freshness, on every answer, for a type that is always the same.
 */
export function sendJson(response: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  // Set, not left to Node: an error answer removed the header first, which stops Node adding it.
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}
