import type { TtsPlugin } from '../plugin/contract';
import type { StreamingStandIn } from './held-answer';

/** The groups of the conformance suite; each can be switched off on its own. */
export type ConformanceGroupName = 'catalog' | 'formats' | 'errors' | 'cancellation' | 'streaming';

/** How a plugin's own test suite runs the shared conformance suite. */
export interface ConformanceOptions<Options> {
  /** The plugin under test: its package's default export. */
  readonly plugin: TtsPlugin<Options>;
  /** Options handed to `create()`; they must pass the plugin's own options schema. */
  readonly options: Options;
  /**
   * The `fetch` handed to the plugin: a stand-in for the provider's API that answers from
   * recorded fixtures (audio in the requested format). Omit for plugins without HTTP.
   */
  readonly fetch?: typeof fetch;
  /**
   * True (the default when `fetch` is given) when the plugin calls its provider over HTTP
   * through `context.fetch`: the suite then checks the mapping of upstream failures
   * (401, 429 with Retry-After, 5xx, unreachable) and cancellation of an in-flight call.
   */
  readonly httpErrorMapping?: boolean;
  /**
   * Groups to run; all run by default (`errors` and the in-flight cancellation only for HTTP
   * plugins, `streaming` only for providers with `synthesizeStream`). `{ streaming: false }`
   * switches one off.
   */
  readonly groups?: Partial<Record<ConformanceGroupName, boolean>>;
  /**
   * For the streaming checks that hold an answer back mid-stream (first bytes before the end,
   * cancellation and a broken connection mid-stream): a stand-in that can hold its next answer,
   * for a plugin that streams over something other than `fetch` (a WebSocket). HTTP plugins need
   * none: the kit holds the answers of `fetch` itself. Without either, those checks are skipped.
   */
  readonly streamingStandIn?: StreamingStandIn;
  /** Voice to synthesize with for a model; defaults to the model's first listed voice. */
  readonly voiceFor?: (model: string) => string | undefined;
  /** Only these models are synthesized with (all are listed and checked); default: all. */
  readonly synthesisModels?: readonly string[];
  /** Text synthesized in every check; default a short English sentence. */
  readonly sampleText?: string;
  /** Timeout per check in milliseconds for runners that take one; default 30 s (embedded engines warm up). */
  readonly timeoutMs?: number;
}
