/**
 * The floor of the `/v1/audio/speech` scenarios: the least a Node proxy can do, measured in the
 * same run as the gateway. Node's http server and an undici Pool, as the gateway has, and
 * nothing else: no key, no validation, no limits, no metrics, no log. It forwards the request
 * body as it came to the stand-in and streams the answer back. What it reaches (share, added
 * latency, CPU) on this machine, any gateway written for Node starts from.
 *
 * Usage: node bare-proxy.js <upstream origin>; prints `{"port": N}` once listening.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { Pool } from 'undici';

const upstream = new Pool(process.argv[2] ?? '', { connections: 64 });

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of request as AsyncIterable<Buffer>) parts.push(part);
  return Buffer.concat(parts);
}

const server = createServer((request, response) => {
  const forward = async (): Promise<void> => {
    const body = await readBody(request);
    const answer = await upstream.request({ path: '/v1/audio/speech', method: 'POST', headers: { 'content-type': 'application/json' }, body });
    response.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'application/octet-stream') });
    for await (const piece of answer.body as AsyncIterable<Buffer>) response.write(piece);
    response.end();
  };
  forward().catch(() => response.destroy());
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => void upstream.close().then(() => process.exit(0)));
});
