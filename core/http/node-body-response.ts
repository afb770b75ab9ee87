import type { Readable } from 'node:stream';
import { headersOfRaw, type RawHeaders } from './header-records';
import { nodeBodyAsWebStream } from './node-body-web-stream';

/**
 * A fetch `Response` whose body stays the Node stream undici read it into until a caller asks
 * for the web form (`body`, `blob`, `formData`, `clone`): turning every answer into a web stream
 * costs a `ReadableStream`, its transfer hooks and a promise per piece, which a caller that reads
 * the whole body (`arrayBuffer`, `text`, `json`) or iterates it (`takeNodeBody`) never needs.
 */
export interface NodeBodyResponse extends Response {
  /**
   * The body as the Node stream, to iterate; once, and only while nobody has read the body
   * another way. The caller then owns it (destroying it releases the connection).
   */
  takeNodeBody(): Readable | undefined;
  /** Drops the body unread, releasing the connection; nothing when it was read already. */
  discardBody(): void;
}

/** The status and headers of an answer, as undici's request API gives them. */
export interface NodeBodyAnswer {
  readonly status: number;
  readonly headers?: RawHeaders;
}

type NodeBodyResponseClass = new (body: Readable, answer: NodeBodyAnswer) => NodeBodyResponse;

/** Defined at the first answer, not at import: the global `Response` loads Node's fetch (26 ms of a start). */
let definedClass: NodeBodyResponseClass | undefined;

/** An answer of the pooled fetch, its body kept as the Node stream `body`. */
export function nodeBodyResponse(body: Readable, answer: NodeBodyAnswer): NodeBodyResponse {
  definedClass ??= defineNodeBodyResponse();
  return new definedClass(body, answer);
}

/** Whether `response` is an answer of the pooled fetch (its body a Node stream until a caller asks for a web one). */
export function isNodeBodyResponse(response: Response): response is NodeBodyResponse {
  return definedClass !== undefined && response instanceof definedClass;
}

function defineNodeBodyResponse(): NodeBodyResponseClass {
  // Typed as a bare class: the DOM typings declare Response's methods as properties, which a
  // subclass could not override; the object is a real Response all the same.
  const ResponseBase = Response as unknown as new (body: null, init: ResponseInit) => object;

  class PooledAnswer extends ResponseBase {
    declare readonly status: number;
    declare readonly statusText: string;
    private nodeBody: Readable | undefined;
    private webForm: Response | undefined;
    private readonly rawHeaders: RawHeaders;
    private madeHeaders: Headers | undefined;

    constructor(body: Readable, answer: NodeBodyAnswer) {
      super(null, { status: answer.status });
      this.nodeBody = body;
      this.rawHeaders = answer.headers ?? {};
    }

    /** Made at the first read: the Response's own copy would be a second `Headers` per answer. */
    get headers(): Headers {
      return (this.madeHeaders ??= headersOfRaw(this.rawHeaders));
    }

    takeNodeBody(): Readable | undefined {
      const body = this.webForm ? undefined : this.nodeBody;
      this.nodeBody = undefined;
      return body;
    }

    discardBody(): void {
      const body = this.takeNodeBody();
      if (body) destroyQuietly(body);
      else void this.webForm?.body?.cancel().catch(() => undefined);
    }

    /** The body as a web stream; null once it was read another way. */
    get body(): ReadableStream<Uint8Array> | null {
      if (!this.webForm && !this.nodeBody) return null;
      return this.web().body;
    }

    get bodyUsed(): boolean {
      return this.webForm ? this.webForm.bodyUsed : this.nodeBody === undefined;
    }

    async arrayBuffer(): Promise<ArrayBuffer> {
      if (this.webForm) return this.webForm.arrayBuffer();
      const body = this.takeNodeBody();
      if (!body) throw new TypeError('Body is unusable: Body has already been read');
      const pieces: Uint8Array[] = [];
      let total = 0;
      for await (const piece of body as AsyncIterable<Uint8Array>) {
        pieces.push(piece);
        total += piece.byteLength;
      }
      // One copy into a buffer of its own (a pooled Buffer's ArrayBuffer would be shared), not
      // zeroed first: every byte of it is written below.
      const whole = Buffer.allocUnsafeSlow(total);
      let offset = 0;
      for (const piece of pieces) {
        whole.set(piece, offset);
        offset += piece.byteLength;
      }
      return whole.buffer;
    }

    async bytes(): Promise<Uint8Array> {
      return new Uint8Array(await this.arrayBuffer());
    }

    async text(): Promise<string> {
      return new TextDecoder().decode(await this.arrayBuffer());
    }

    async json(): Promise<unknown> {
      return JSON.parse(await this.text());
    }

    async blob(): Promise<Blob> {
      return this.web().blob();
    }

    async formData(): Promise<FormData> {
      return this.web().formData();
    }

    clone(): Response {
      return this.web().clone();
    }

    /** The same answer with a web stream body, made at the first call that needs one. */
    private web(): Response {
      if (!this.webForm) {
        const body = this.nodeBody;
        this.nodeBody = undefined;
        if (!body) throw new TypeError('Body is unusable: Body has already been read');
        this.webForm = new Response(nodeBodyAsWebStream(body), { status: this.status, statusText: this.statusText, headers: this.headers });
      }
      return this.webForm;
    }
  }
  return PooledAnswer as unknown as NodeBodyResponseClass;
}

/** Destroys a body nobody reads any more; undici reports that as an error, which nobody is left to hear. */
export function destroyQuietly(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}
