/**
 * An OpenAI-shaped speech server for the HTTP benchmark, run as its own process so its CPU is not
 * the gateway's: `POST /v1/audio/speech` answers one real MP3 (or the same bytes as OpenAI's SSE
 * events), `GET /v1/models` and `GET /v1/audio/voices` list one model and one voice. It also
 * plays the bare node http server of the baselines: `GET /api/v1/tools/models` answers a small
 * JSON envelope and every other path a 404 envelope.
 *
 * Usage: node stand-in-upstream.js <mp3 file>; prints `{"port": N}` once listening.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

const SSE_CHUNK_BYTES = 4096;

const audio = readFileSync(process.argv[2] ?? '');
const modelList = JSON.stringify({ object: 'list', data: [{ id: 'tts-1', object: 'model', owned_by: 'stand-in' }] });
const voiceList = JSON.stringify({ voices: ['alloy'] });
const sseEvents = speechEvents(audio);

/** OpenAI's `stream_format: "sse"`: base64 audio deltas, then a done event. */
function speechEvents(bytes: Buffer): Buffer {
  const events: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += SSE_CHUNK_BYTES) {
    const delta = bytes.subarray(offset, offset + SSE_CHUNK_BYTES).toString('base64');
    events.push(`data: ${JSON.stringify({ type: 'speech.audio.delta', audio: delta })}\n\n`);
  }
  events.push(`data: ${JSON.stringify({ type: 'speech.audio.done', usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } })}\n\n`);
  return Buffer.from(events.join(''));
}

function envelope(success: boolean, message: string, data: unknown): string {
  return JSON.stringify({ success, message, timestamp: Date.now(), data });
}

function send(response: ServerResponse, status: number, type: string, body: string | Buffer): void {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

async function speech(request: IncomingMessage, response: ServerResponse): Promise<void> {
  let body: { model?: unknown; input?: unknown; voice?: unknown; stream_format?: unknown };
  try {
    body = JSON.parse(await readBody(request)) as typeof body;
  } catch {
    send(response, 400, 'application/json', JSON.stringify({ error: { message: 'body is not JSON', type: 'invalid_request_error' } }));
    return;
  }
  if (typeof body.model !== 'string' || typeof body.input !== 'string' || typeof body.voice !== 'string') {
    send(response, 400, 'application/json', JSON.stringify({ error: { message: 'model, input and voice are required', type: 'invalid_request_error' } }));
    return;
  }
  if (body.stream_format === 'sse') send(response, 200, 'text/event-stream', sseEvents);
  else send(response, 200, 'audio/mpeg', audio);
}

const server = createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0];
  if (request.method === 'POST' && path === '/v1/audio/speech') {
    speech(request, response).catch(() => response.destroy());
    return;
  }
  // Reads answer without waiting for a body, as a bare server does.
  request.resume();
  if (request.method === 'GET' && path === '/v1/models') send(response, 200, 'application/json', modelList);
  else if (request.method === 'GET' && path === '/v1/audio/voices') send(response, 200, 'application/json', voiceList);
  else if (request.method === 'GET' && path === '/api/v1/tools/models') send(response, 200, 'application/json; charset=utf-8', envelope(true, 'Models listed', ['tts-1']));
  else send(response, 404, 'application/json; charset=utf-8', envelope(false, `No route for ${request.method} ${path}`, null));
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
process.on('SIGTERM', () => {
  // Keep-alive connections would hold close() open: end them too.
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
