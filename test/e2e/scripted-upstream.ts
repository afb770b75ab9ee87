import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPcm, encodeAudio, type AudioFormat } from '../../core';
import { conformanceAudio } from '../plugins/openai-compatible/harness';

/** What the stand-in does with one `POST /v1/audio/speech`. */
export type SpeechStep =
  | { readonly kind: 'audio' }
  | { readonly kind: 'status'; readonly status: number; readonly body?: string; readonly headers?: Readonly<Record<string, string>> }
  /** Accepts the request and never answers. */
  | { readonly kind: 'hang' }
  /** Drops the connection without an answer. */
  | { readonly kind: 'reset' }
  /** 200 with a JSON error document where audio belongs. */
  | { readonly kind: 'json' }
  /** 200 with an audio content type and no bytes. */
  | { readonly kind: 'empty' }
  /** 200 announcing the whole file, sending half, then dropping the connection. */
  | { readonly kind: 'truncated' }
  /** 200, then one byte every 20 ms, never finishing. */
  | { readonly kind: 'drip' }
  /** A 16-bit mono WAV file (22,050 Hz), whatever format was asked. */
  | { readonly kind: 'wav' }
  /** The audio (or `then`), once the test lets it go (a request still in the works while others arrive). */
  | { readonly kind: 'held'; readonly until: Promise<unknown>; readonly then?: SpeechStep }
  /** Another format's audio, under the content type of the format asked (a mislabelled answer). */
  | { readonly kind: 'other'; readonly format: AudioFormat }
  /** 200 with bytes of no known audio format (neither audio nor JSON) under the asked content type. */
  | { readonly kind: 'noise' };

export const step = {
  audio: { kind: 'audio' },
  hang: { kind: 'hang' },
  reset: { kind: 'reset' },
  json: { kind: 'json' },
  empty: { kind: 'empty' },
  truncated: { kind: 'truncated' },
  drip: { kind: 'drip' },
  wav: { kind: 'wav' },
  noise: { kind: 'noise' },
  other: (format: AudioFormat): SpeechStep => ({ kind: 'other', format }),
  status: (status: number, body = '', headers: Record<string, string> = {}): SpeechStep => ({ kind: 'status', status, body, headers }),
  held: (until: Promise<unknown>, then: SpeechStep = { kind: 'audio' }): SpeechStep => ({ kind: 'held', until, then }),
} as const satisfies Record<string, SpeechStep | ((...args: never[]) => SpeechStep)>;

const CONTENT_TYPES: Readonly<Record<AudioFormat, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'application/octet-stream',
};

/** The rate of the WAV the `wav` step sends, distinct from the plugin's configured pcm rate. */
export const WAV_STEP_RATE = 22_050;

/**
 * A real HTTP server standing in for an OpenAI-compatible speech server (Kokoro-FastAPI's
 * shapes), scripted per request: each speech call takes the next step, then `fallback`.
 * `GET /v1/models` answers the model list, or 503 while `modelsAvailable` is false.
 */
export class ScriptedUpstream {
  /** Speech requests received, whatever happened to them. */
  speechAttempts = 0;
  /** Speech answers whose connection closed before they were all sent (the gateway let go of them, or a step cut them). */
  speechAnswersCut = 0;
  modelListings = 0;
  modelsAvailable = true;
  fallback: SpeechStep = step.audio;
  private steps: SpeechStep[] = [];
  private readonly server: Server;
  private readonly audio = conformanceAudio();
  private readonly timers = new Set<NodeJS.Timeout>();
  private wav: Uint8Array = new Uint8Array(0);

  private constructor() {
    this.server = createServer((request, response) => void this.handle(request, response));
  }

  static async start(): Promise<ScriptedUpstream> {
    const upstream = new ScriptedUpstream();
    await upstream.listen();
    return upstream;
  }

  /** A stand-in for the enclosing mocha suite: it listens from the suite's `before` until its `after`. */
  static forSuite(): ScriptedUpstream {
    const upstream = new ScriptedUpstream();
    before(() => upstream.listen());
    after(() => upstream.close());
    return upstream;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The bytes of the `wav` step, to compare what the gateway stored. */
  get wavBytes(): Uint8Array {
    return this.wav;
  }

  /** The audio the stand-in sends for `format` (the `audio` and `other` steps). */
  audioBytes(format: AudioFormat): Uint8Array {
    return this.audio[format];
  }

  /** Replaces the script: the next speech calls take these steps in order. */
  script(...steps: SpeechStep[]): void {
    this.steps = [...steps];
    this.speechAttempts = 0;
  }

  private async listen(): Promise<void> {
    const samples = new Float32Array(WAV_STEP_RATE / 4).map((_, index) => 0.25 * Math.sin(index / 6));
    this.wav = (await encodeAudio(createPcm(samples, WAV_STEP_RATE), 'wav')).audio;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    if (request.method === 'GET' && path === '/v1/models') {
      this.modelListings += 1;
      if (!this.modelsAvailable) return json(response, 503, { detail: 'model server is loading' });
      return json(response, 200, { object: 'list', data: [{ id: 'tts-1', object: 'model' }] });
    }
    if (request.method === 'GET' && path === '/v1/audio/voices') return json(response, 200, { voices: ['af_bella', 'alloy'] });
    if (request.method !== 'POST' || path !== '/v1/audio/speech') return json(response, 404, { detail: 'Not Found' });
    this.speechAttempts += 1;
    response.on('close', () => {
      if (!response.writableFinished) this.speechAnswersCut += 1;
    });
    const format = (JSON.parse(body) as { response_format: AudioFormat }).response_format;
    this.play(this.steps.shift() ?? this.fallback, format, request, response);
  }

  private play(next: SpeechStep, format: AudioFormat, request: IncomingMessage, response: ServerResponse): void {
    const audio = this.audio[format];
    switch (next.kind) {
      case 'audio':
        response.writeHead(200, { 'content-type': CONTENT_TYPES[format], 'content-length': audio.byteLength }).end(audio);
        return;
      case 'wav':
        response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': this.wav.byteLength }).end(this.wav);
        return;
      case 'other': {
        const other = this.audio[next.format];
        response.writeHead(200, { 'content-type': CONTENT_TYPES[format], 'content-length': other.byteLength }).end(other);
        return;
      }
      case 'noise': {
        // Text-like bytes that match no audio signature and do not parse as JSON.
        const noise = Buffer.from('<html><body>upstream proxy error</body></html>'.repeat(20));
        response.writeHead(200, { 'content-type': CONTENT_TYPES[format], 'content-length': noise.byteLength }).end(noise);
        return;
      }
      case 'status':
        response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers }).end(next.body ?? '');
        return;
      case 'hang':
        return;
      case 'held':
        void next.until.then(() => this.play(next.then ?? step.audio, format, request, response));
        return;
      case 'reset':
        request.socket.destroy();
        return;
      case 'json':
        return json(response, 200, { error: { message: 'model overloaded, try later', type: 'server_error' } });
      case 'empty':
        response.writeHead(200, { 'content-type': CONTENT_TYPES[format], 'content-length': 0 }).end();
        return;
      case 'truncated':
        response.writeHead(200, { 'content-type': CONTENT_TYPES[format], 'content-length': audio.byteLength });
        response.write(audio.subarray(0, audio.byteLength >> 1), () => request.socket.destroy());
        return;
      case 'drip': {
        response.writeHead(200, { 'content-type': CONTENT_TYPES[format], 'content-length': audio.byteLength });
        let offset = 0;
        const timer = setInterval(() => {
          if (response.destroyed || offset >= audio.byteLength - 1) return clearInterval(timer);
          response.write(audio.subarray(offset, offset + 1));
          offset += 1;
        }, 20);
        this.timers.add(timer);
        return;
      }
    }
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
