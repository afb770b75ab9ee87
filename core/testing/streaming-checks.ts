import type { AudioFormat } from '../audio/audio-format';
import { isGatewayError } from '../errors';
import type { ModelInfo, ProviderSynthesisRequest, TtsProvider } from '../plugin/contract';
import { checkAudio, ConformanceFailure, ensure, expectGatewayError } from './conformance-checks';
import type { CheckOutcome, ConformanceCheck } from './conformance-suite';
import { failingFetches } from './failing-fetches';
import type { HeldAnswer, StreamingStandIn } from './held-answer';
import { holdingFetch } from './holding-fetch';

/** What the streaming checks need from the suite. */
export interface StreamingCheckContext {
  live(): TtsProvider;
  synthesisModels(): ModelInfo[];
  firstModel(): ModelInfo;
  request(model: ModelInfo, extra?: Partial<ProviderSynthesisRequest>): Promise<ProviderSynthesisRequest>;
  /** Runs `run` with a provider of the same plugin on `fetchImplementation`, closed afterwards. */
  withProvider(fetchImplementation: typeof fetch, run: (provider: TtsProvider) => Promise<void>): Promise<CheckOutcome>;
  readonly overHttp: boolean;
  readonly fetch?: typeof fetch;
  readonly streamingStandIn?: StreamingStandIn;
}

type Check = (name: string, run: () => Promise<CheckOutcome | void>) => ConformanceCheck;

const NO_STREAM: CheckOutcome = { status: 'skipped', reason: 'the provider has no synthesizeStream' };
const NOTHING_TO_HOLD: CheckOutcome = {
  status: 'skipped',
  reason: 'no stand-in can hold an answer back mid-stream: give `fetch` (HTTP plugins), or `streamingStandIn` for a plugin that streams over something else',
};
const PASSED: CheckOutcome = { status: 'passed' };

/** The checks of the `streaming` group; each is skipped when the provider has no `synthesizeStream`. */
export function streamingChecks(context: StreamingCheckContext, check: Check): ConformanceCheck[] {
  const { live } = context;
  const streamOf = (provider: TtsProvider) => {
    ensure(provider.synthesizeStream, 'a provider built from the same plugin must stream too');
    return provider.synthesizeStream.bind(provider);
  };

  /** Runs `run` on a provider whose next synthesis answer the stand-in holds back after its first part. */
  const withHeldAnswer = async (run: (provider: TtsProvider, held: HeldAnswer) => Promise<void>): Promise<CheckOutcome> => {
    if (!live().synthesizeStream) return NO_STREAM;
    const runHeld = async (provider: TtsProvider, held: HeldAnswer) => {
      try {
        await run(provider, held);
      } finally {
        held.release(); // a check that failed half-way leaves no answer waiting
      }
    };
    if (context.streamingStandIn) {
      await runHeld(live(), context.streamingStandIn.holdNextAnswer());
      return PASSED;
    }
    if (!context.overHttp || !context.fetch) return NOTHING_TO_HOLD;
    const holding = holdingFetch(context.fetch);
    return context.withProvider(holding.fetch, (provider) => runHeld(provider, holding.holdNextAnswer()));
  };

  /** Starts a stream on the held answer and reads its first chunk, which must come before the rest. */
  const firstChunk = async (provider: TtsProvider, held: HeldAnswer, request: ProviderSynthesisRequest) => {
    const stream = await beforeTheRest(streamOf(provider)(request), held, 'synthesizeStream');
    const iterator = stream.chunks[Symbol.asyncIterator]();
    const first = await beforeTheRest(iterator.next(), held, 'the first chunk');
    ensure(!first.done && first.value.byteLength > 0, 'the stream ended before its first bytes');
    return { stream, iterator, first: first.value };
  };

  return [
    check('streams every declared format, and the joined bytes are that format', async () => {
      if (!live().synthesizeStream) return NO_STREAM;
      for (const model of context.synthesisModels()) {
        for (const format of model.capabilities.formats) {
          const stream = await streamOf(live())(await context.request(model, { format }));
          checkAudio(model.name, format, { audio: await drain(stream.chunks[Symbol.asyncIterator]()), format: stream.format, sampleRate: stream.sampleRate });
        }
      }
    }),
    check('hands the first bytes on before the provider has sent the whole answer', async () => {
      const model = context.firstModel();
      const format = model.capabilities.formats[0] as AudioFormat;
      const request = await context.request(model, { format });
      return withHeldAnswer(async (provider, held) => {
        const { stream, iterator, first } = await firstChunk(provider, held, request);
        held.release();
        const audio = Buffer.concat([first, await drain(iterator)]);
        checkAudio(model.name, format, { audio: new Uint8Array(audio), format: stream.format, sampleRate: stream.sampleRate });
      });
    }),
    check('refuses to start a stream when the call is already cancelled', async () => {
      if (!live().synthesizeStream) return NO_STREAM;
      const controller = new AbortController();
      controller.abort();
      const request = await context.request(context.firstModel(), { signal: controller.signal });
      const consume = async () => drain((await streamOf(live())(request)).chunks[Symbol.asyncIterator]());
      await expectGatewayError(consume(), 'TTS_ERR_CANCELLED', 'pre-aborted stream');
    }),
    check('stops reading the answer when the call is cancelled mid-stream', async () => {
      const controller = new AbortController();
      const request = await context.request(context.firstModel(), { signal: controller.signal });
      return withHeldAnswer(async (provider, held) => {
        const { iterator } = await firstChunk(provider, held, request);
        controller.abort();
        await expectGatewayError(beforeTheRest(iterator.next(), held, 'after the signal aborted'), 'TTS_ERR_CANCELLED', 'reading on after the signal aborted');
        await held.closedByConsumer;
      });
    }),
    check('throws a coded error, not a clean end, when the answer breaks off mid-stream', async () => {
      const request = await context.request(context.firstModel());
      return withHeldAnswer(async (provider, held) => {
        const { iterator } = await firstChunk(provider, held, request);
        held.cut();
        let failure: unknown;
        try {
          await drain(iterator);
        } catch (error) {
          failure = error;
        }
        ensure(failure !== undefined, 'a stream whose connection broke off ended as if the audio were complete');
        ensure(isGatewayError(failure), `a broken-off stream must raise core's GatewayError, raised ${String(failure)}`);
        ensure(failure.status >= 500, `a broken-off stream is the provider's failure (5xx), got ${failure.code}`);
      });
    }),
    check('maps an upstream 401 when a stream starts to TTS_ERR_UPSTREAM_AUTH', async () => {
      if (!live().synthesizeStream) return NO_STREAM;
      if (!context.overHttp) return { status: 'skipped', reason: 'the plugin does not call its provider through context.fetch' };
      const request = await context.request(context.firstModel());
      return context.withProvider(failingFetches.unauthorized, async (failing) => {
        await expectGatewayError(streamOf(failing)(request), 'TTS_ERR_UPSTREAM_AUTH', 'an upstream 401 on a stream');
      });
    }),
  ];
}

/**
 * Awaits `step` while the answer is held. When the stand-in can tell that the plugin asks for the
 * rest of the answer, and the step has still not settled one turn of the event loop later (time
 * enough for bytes already read to reach the consumer), the plugin is waiting for the whole
 * answer: the check fails at once and the answer is released.
 */
async function beforeTheRest<T>(step: Promise<T>, held: HeldAnswer, what: string): Promise<T> {
  if (!held.awaitingRest) return step;
  let settled = false;
  const tracked = step.finally(() => {
    settled = true;
  });
  const stalled = held.awaitingRest.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  await Promise.race([tracked.catch(() => undefined), stalled]);
  if (!settled) {
    held.release();
    throw new ConformanceFailure(`${what}: the plugin waited for the rest of the provider's answer instead of handing on the bytes it had`);
  }
  return tracked;
}

async function drain(iterator: AsyncIterator<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) parts.push(next.value);
  return new Uint8Array(Buffer.concat(parts));
}
