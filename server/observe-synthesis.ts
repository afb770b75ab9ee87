import { codePointCount, failedTarget, synthesisOutcomeOf, UNKNOWN_LABEL, type Metrics, type SynthesisOutcome } from '../core';
import type { StreamFunction, SynthesisRequest, SynthesizeFunction } from './app-dependencies';

export interface SynthesisObservers {
  readonly metrics: Metrics;
  /** Whether a model name is served (a catalog model, a route or an alias). */
  readonly isServed: (model: string) => boolean;
  /** The provider instance of a catalog model; undefined for a route (chosen per request) or an unknown name. */
  readonly providerOf: (model: string) => string | undefined;
}

/** Times one synthesis and reports it once, whatever way it ends. */
class Observation {
  private readonly started = process.hrtime.bigint();
  private readonly labels: { model: string; provider: string };
  private readonly characters: number;

  constructor(
    request: SynthesisRequest,
    private readonly observers: SynthesisObservers,
  ) {
    // A model nobody serves is the client's typo: never a label of its own.
    this.labels = { model: observers.isServed(request.model) ? request.model : UNKNOWN_LABEL, provider: observers.providerOf(request.model) ?? UNKNOWN_LABEL };
    this.characters = codePointCount(request.text);
  }

  seconds(): number {
    return Number(process.hrtime.bigint() - this.started) / 1e9;
  }

  firstByte(provider: string | undefined): void {
    this.observers.metrics.synthesisFirstByte({ model: this.labels.model, provider: provider ?? this.labels.provider }, this.seconds());
  }

  finished(outcome: SynthesisOutcome, provider: string | undefined, audioSeconds = 0): void {
    this.observers.metrics.synthesisFinished({ model: this.labels.model, provider: provider ?? this.labels.provider, outcome, characters: this.characters, audioSeconds, seconds: this.seconds() });
  }

  /**
   * `provider`: the one that served the failed synthesis, when known (a stream broken off midway);
   * else that of the target whose failure is answered (a route's, which its name cannot tell).
   */
  failed(error: unknown, provider?: string): void {
    const target = failedTarget(error);
    this.finished(synthesisOutcomeOf(error), provider ?? (target && this.observers.providerOf(target.model)));
  }
}

/**
 * Counts each stored synthesis (tts-sync) by model, provider and outcome, with its characters
 * and duration. Wraps the call from the outside, so the synthesis service needs no metrics code
 * (a provider's last error for /health/ready is kept by its resilience layer).
 */
export function observeSynthesis(synthesize: SynthesizeFunction, observers: SynthesisObservers): SynthesizeFunction {
  return async (request, context) => {
    const observation = new Observation(request, observers);
    try {
      const outcome = await synthesize(request, context);
      observation.finished('success', outcome.provider, outcome.durationSeconds ?? 0);
      return outcome;
    } catch (error) {
      observation.failed(error);
      throw error;
    }
  };
}

/**
 * The same for streamed syntheses (tts-stream, /v1/audio/speech), plus the time to the first
 * audio byte and the seconds of audio sent. A client that stops reading counts as `cancelled`.
 */
export function observeStream(stream: StreamFunction, observers: SynthesisObservers): StreamFunction {
  return async (request, context) => {
    const observation = new Observation(request, observers);
    let synthesis: Awaited<ReturnType<StreamFunction>>;
    try {
      synthesis = await stream(request, context);
    } catch (error) {
      observation.failed(error);
      throw error;
    }
    const source = synthesis.chunks;
    async function* observed(): AsyncGenerator<Uint8Array> {
      let first = true;
      let ended = false;
      try {
        for await (const chunk of source) {
          if (first) {
            first = false;
            observation.firstByte(synthesis.provider);
          }
          yield chunk;
        }
        ended = true;
        observation.finished('success', synthesis.provider, synthesis.progress.durationSeconds ?? 0);
      } catch (error) {
        ended = true;
        // The stream began, so its provider is known (a route's target, which the labels could not name).
        observation.failed(error, synthesis.provider);
        throw error;
      } finally {
        if (!ended) observation.finished('cancelled', synthesis.provider, synthesis.progress.durationSeconds ?? 0);
      }
    }
    return { ...synthesis, chunks: observed() };
  };
}
