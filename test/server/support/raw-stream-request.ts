import { request as httpRequest, type ClientRequest } from 'node:http';

/**
 * A POST on a raw connection, so a test can leave mid-answer (`client.destroy()`): the request,
 * and the first bytes of the answer's body (if any come).
 */
export function rawStreamRequest(port: number, path: string, apiKey: string, body: unknown): { client: ClientRequest; firstBytes: Promise<Buffer> } {
  const client = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' } });
  client.on('error', () => undefined);
  const firstBytes = new Promise<Buffer>((resolve) => client.once('response', (response) => response.once('data', resolve)));
  client.end(JSON.stringify(body));
  return { client, firstBytes };
}
