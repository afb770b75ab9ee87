/**
 * A local stand-in for the Edge read-aloud service: the WebSocket endpoint (protocol of the
 * Speech SDK: speech.config + ssml text frames in; turn.start, binary Path:audio frames with a
 * 2-byte header length, turn.end out) and the voice list, both checking Sec-MS-GEC against the
 * stand-in's own clock the way the service does. Nothing here reaches Microsoft.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { HeldAnswer, StreamingStandIn } from '../../../core/testing';
import { fixturesRoot } from '../../support/paths';

export type StandInBehaviour = 'speak' | 'refuse' | 'silent' | 'close-early' | 'no-audio' | 'zstd-voices';

export const TRUSTED_CLIENT_TOKEN = '6A5AA1D4EAFF4E9FB37E23D68491D6F4';
const ROOT = '/consumer/speech/synthesize/readaloud';

export interface ReceivedConnection {
  readonly url: URL;
  readonly headers: IncomingHttpHeaders;
  readonly messages: string[];
}

/** The token as the service computes it, written independently of the plugin (BigInt ticks). */
export function expectedToken(nowMs: number, token = TRUSTED_CLIENT_TOKEN): string {
  let ticks = BigInt(Math.floor(nowMs / 1000)) + 11_644_473_600n;
  ticks -= ticks % 300n;
  return createHash('sha256').update(`${ticks * 10_000_000n}${token}`).digest('hex').toUpperCase();
}

export function fixtureAudio(): Uint8Array {
  const parsed = JSON.parse(readFileSync(join(fixturesRoot, 'edge', 'turn-audio.json'), 'utf8')) as { audioHex: string };
  return new Uint8Array(Buffer.from(parsed.audioHex, 'hex'));
}

function headerBlock(requestId: string, path: string, contentType: string): string {
  return `X-RequestId:${requestId}\r\nContent-Type:${contentType}\r\nPath:${path}\r\n`;
}

function audioFrame(requestId: string, audio: Uint8Array): Buffer {
  const headers = Buffer.from(`X-RequestId:${requestId}\r\nContent-Type:audio/mpeg\r\nX-StreamId:4D7C5E1A\r\nPath:audio\r\n`);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(headers.length);
  return Buffer.concat([length, headers, audio]);
}

/**
 * Bytes as a zstd frame of raw (stored) blocks, written from RFC 8878: magic, a single-segment
 * frame header with a 4-byte content size, then blocks of at most 128 KiB, the last one flagged.
 */
export function zstdStoredFrame(bytes: Uint8Array): Buffer {
  const header = Buffer.alloc(9);
  header.writeUInt32LE(0xfd2fb528, 0);
  header[4] = 0xa0; // content size in 4 bytes, single segment, no checksum, no dictionary
  header.writeUInt32LE(bytes.byteLength, 5);
  const blocks: Buffer[] = [header];
  const blockSize = 128 * 1024;
  for (let start = 0; start < bytes.byteLength; start += blockSize) {
    const block = bytes.subarray(start, start + blockSize);
    const last = start + blockSize >= bytes.byteLength ? 1 : 0;
    const blockHeader = Buffer.alloc(3);
    blockHeader.writeUIntLE((block.byteLength << 3) | last, 0, 3); // block type 0: raw
    blocks.push(blockHeader, Buffer.from(block));
  }
  return Buffer.concat(blocks);
}

/** A turn the stand-in holds after its first audio frame until the test releases or cuts it. */
class HeldTurn implements HeldAnswer {
  readonly closedByConsumer: Promise<void>;
  /** Settles once the first audio frame has been sent and the turn waits. */
  readonly holding: Promise<void>;
  readonly gate: Promise<'release' | 'cut'>;
  private open!: (gate: 'release' | 'cut') => void;
  closed!: () => void;
  held!: () => void;

  constructor() {
    this.gate = new Promise((resolve) => (this.open = resolve));
    this.closedByConsumer = new Promise((resolve) => (this.closed = resolve));
    this.holding = new Promise((resolve) => (this.held = resolve));
  }

  release(): void {
    this.open('release');
  }

  cut(): void {
    this.open('cut');
  }
}

export class EdgeStandIn implements StreamingStandIn {
  behaviour: StandInBehaviour = 'speak';
  /** The stand-in's clock relative to this machine's (the service's clock may differ). */
  clockOffsetMs = 0;
  readonly connections: ReceivedConnection[] = [];
  readonly voiceRequests: URL[] = [];
  readonly voiceRequestHeaders: IncomingHttpHeaders[] = [];
  refusals = 0;
  private readonly audio = fixtureAudio();
  private heldTurn?: HeldTurn;
  private readonly sockets = new WebSocketServer({ noServer: true });

  private constructor(private readonly server: Server) {
    server.on('upgrade', (request, socket, head) => this.upgrade(request, socket, head));
    server.on('request', (request, response) => this.voices(request, response));
  }

  static async start(): Promise<EdgeStandIn> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new EdgeStandIn(server);
  }

  private get origin(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get socketUrl(): string {
    return `ws://${this.origin}${ROOT}/edge/v1`;
  }

  get voicesUrl(): string {
    return `http://${this.origin}${ROOT}/voices/list`;
  }

  async close(): Promise<void> {
    for (const client of this.sockets.clients) client.terminate();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  private tokenValid(url: URL): boolean {
    return url.searchParams.get('Sec-MS-GEC') === expectedToken(this.now());
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', `http://${this.origin}`);
    if (this.behaviour === 'refuse' || !this.tokenValid(url) || url.searchParams.get('TrustedClientToken') !== TRUSTED_CLIENT_TOKEN) {
      this.refusals += 1;
      socket.end(`HTTP/1.1 403 Forbidden\r\nDate: ${new Date(this.now()).toUTCString()}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    const connection: ReceivedConnection = { url, headers: request.headers, messages: [] };
    this.connections.push(connection);
    this.sockets.handleUpgrade(request, socket, head, (webSocket) => {
      webSocket.on('message', (data, isBinary) => {
        if (isBinary) return;
        const text = data.toString();
        connection.messages.push(text);
        const requestId = /X-RequestId:([0-9a-f]+)\r\n/.exec(text)?.[1];
        if (text.includes('Path:ssml\r\n') && requestId) this.answer(webSocket, requestId);
      });
    });
  }

  /** The next spoken turn stops after its first audio frame until the test releases (or cuts) it. */
  holdNextAnswer(): HeldTurn {
    this.heldTurn = new HeldTurn();
    return this.heldTurn;
  }

  /** The audio frames of a spoken turn: the recording in three parts. */
  audioFrames(): Uint8Array[] {
    const third = Math.ceil(this.audio.byteLength / 3);
    const frames: Uint8Array[] = [];
    for (let start = 0; start < this.audio.byteLength; start += third) frames.push(this.audio.subarray(start, start + third));
    return frames;
  }

  private answer(webSocket: WebSocket, requestId: string): void {
    const json = 'application/json; charset=utf-8';
    if (this.behaviour === 'silent') return;
    if (this.behaviour === 'close-early') return void webSocket.terminate();
    webSocket.send(`${headerBlock(requestId, 'turn.start', json)}\r\n{"context":{"serviceTag":"9f1c2b7e"}}`);
    const endTurn = () => webSocket.send(`${headerBlock(requestId, 'turn.end', json)}\r\n{}`);
    if (this.behaviour !== 'speak') return endTurn();
    webSocket.send(`${headerBlock(requestId, 'response', json)}\r\n{"context":{"serviceTag":"9f1c2b7e"},"audio":{"type":"inline","streamId":"4D7C5E1A"}}`);
    const [first, ...rest] = this.audioFrames();
    const finish = () => {
      for (const frame of rest) webSocket.send(audioFrame(requestId, frame));
      webSocket.send(audioFrame(requestId, new Uint8Array(0))); // the service ends the stream with an empty audio frame
      endTurn();
    };
    webSocket.send(audioFrame(requestId, first));
    const held = this.heldTurn;
    this.heldTurn = undefined;
    if (!held) return finish();
    let ended = false;
    webSocket.on('close', () => {
      if (!ended) held.closed();
    });
    held.held();
    void held.gate.then((gate) => {
      if (ended || webSocket.readyState !== webSocket.OPEN) return;
      ended = true;
      if (gate === 'cut') webSocket.terminate();
      else finish();
    });
  }

  private voices(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', `http://${this.origin}`);
    this.voiceRequests.push(url);
    this.voiceRequestHeaders.push(request.headers);
    if (url.pathname !== `${ROOT}/voices/list`) return void response.writeHead(404).end();
    if (this.behaviour === 'refuse' || !this.tokenValid(url)) return void response.writeHead(403, { 'Content-Length': '0' }).end();
    const body = readFileSync(join(fixturesRoot, 'edge', 'voices-list.json'));
    if (this.behaviour === 'zstd-voices' && String(request.headers['accept-encoding']).includes('zstd')) {
      response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Encoding': 'zstd' }).end(zstdStoredFrame(body));
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(body);
  }
}
