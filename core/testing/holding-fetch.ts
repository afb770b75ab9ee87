import type { HeldAnswer, StreamingStandIn } from './held-answer';

type Gate = 'release' | 'cut';

/** One answer body held back before its last byte, pulled by the plugin one piece at a time. */
class HeldBody implements HeldAnswer {
  readonly closedByConsumer: Promise<void>;
  readonly awaitingRest: Promise<void>;
  private readonly gate: Promise<Gate>;
  private open!: (gate: Gate) => void;
  private closed!: () => void;
  private askedForRest!: () => void;

  constructor() {
    this.gate = new Promise((resolve) => (this.open = resolve));
    this.closedByConsumer = new Promise((resolve) => (this.closed = resolve));
    this.awaitingRest = new Promise((resolve) => (this.askedForRest = resolve));
  }

  release(): void {
    this.open('release');
  }

  cut(): void {
    this.open('cut');
  }

  /**
   * The body as a pull stream (high-water mark 0: nothing is read ahead of the plugin): all but
   * its last byte first, then the rest or a break once the gate opens. An abort of the call's
   * signal errors it, as the real fetch does.
   */
  stream(body: Uint8Array, signal: AbortSignal | null | undefined): ReadableStream<Uint8Array> {
    const head = body.subarray(0, Math.max(1, body.byteLength - 1));
    const rest = body.subarray(head.byteLength);
    let sentHead = false;
    let finished = false;
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          signal?.addEventListener(
            'abort',
            () => {
              this.closed();
              if (finished) return;
              finished = true;
              controller.error(signal.reason);
            },
            { once: true },
          );
        },
        pull: async (controller) => {
          if (!sentHead) {
            sentHead = true;
            controller.enqueue(head);
            return;
          }
          this.askedForRest();
          const gate = await this.gate;
          if (finished) return;
          finished = true;
          if (gate === 'cut') return controller.error(new TypeError('terminated: other side closed'));
          if (rest.byteLength > 0) controller.enqueue(rest);
          controller.close();
        },
        cancel: () => {
          finished = true;
          this.closed();
        },
      },
      { highWaterMark: 0 },
    );
  }
}

/**
 * Wraps a plugin's stand-in `fetch` so the streaming checks can hold an answer back: after
 * `holdNextAnswer()`, the next successful answer's body comes in two parts, the second only when
 * the check releases it (or cuts the connection instead). Other answers pass unchanged.
 */
export function holdingFetch(inner: typeof fetch): StreamingStandIn & { readonly fetch: typeof fetch } {
  let armed: HeldBody | undefined;
  const held = (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await inner(input, init);
    const hold = armed;
    armed = undefined;
    if (!hold || !response.ok || !response.body) return response;
    const body = new Uint8Array(await response.arrayBuffer());
    return new Response(hold.stream(body, init?.signal), { status: response.status, statusText: response.statusText, headers: response.headers });
  }) as typeof fetch;
  return {
    fetch: held,
    holdNextAnswer: () => {
      armed = new HeldBody();
      return armed;
    },
  };
}
