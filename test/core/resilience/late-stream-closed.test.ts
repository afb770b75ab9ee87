import { expect } from 'chai';
import { ResilientProvider, type ProviderAudioStream, type ProviderSynthesisRequest } from '../../../core';
import { eventually } from '../../support/eventually';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { recordingLogger } from '../plugin/plugin-test-helpers';
import { ok, policy, request, ScriptedProvider } from './scripted-provider';

/**
 * A plugin that ignores its signal may hand its stream over after the deadline has answered the
 * request (504): nobody reads that stream, so the gateway must close it, or the upstream
 * connection and its buffered body stay held.
 */
describe('core/resilience ResilientProvider: a stream that comes after the deadline', () => {
  /** A streaming plugin that ignores its signal: the test decides when its stream and its first bytes come. */
  class SignalIgnoringStreams extends ScriptedProvider {
    cancelled = 0;
    private handOver?: (stream: ProviderAudioStream) => void;
    private firstBytes?: () => void;

    constructor() {
      super([ok]);
    }

    synthesizeStream(_request: ProviderSynthesisRequest): Promise<ProviderAudioStream> {
      return new Promise((resolve) => (this.handOver = resolve));
    }

    /** Hands the stream over; its bytes wait for `sendBytes` when `bytesLater`. */
    giveStream(bytesLater: boolean): void {
      const chunks = new ReadableStream<Uint8Array>({
        pull: (controller) =>
          new Promise<void>((resolve) => {
            const send = () => {
              controller.enqueue(new Uint8Array([1, 2]));
              resolve();
            };
            if (bytesLater) this.firstBytes = send;
            else send();
          }),
        cancel: () => {
          this.cancelled += 1;
        },
      });
      this.handOver!({ format: 'pcm', sampleRate: 24_000, warnings: [], chunks });
    }

    sendBytes(): void {
      this.firstBytes!();
    }
  }

  const wrap = (inner: SignalIgnoringStreams) => new ResilientProvider(inner, { instanceId: 'ignoring', policy: policy({ retries: 0 }), logger: recordingLogger([]), defaultTimeoutMs: 30_000 });
  /** A request whose deadline the test fires (a TimeoutError, as the service's clock gives). */
  const deadlineRequest = () => {
    const clock = new AbortController();
    return { call: request({ signal: clock.signal, deadline: Date.now() + 30_000 }), fire: () => clock.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')) };
  };
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('cancels a stream the plugin hands over after the deadline answered 504, unread (its bytes may never come)', async () => {
    const inner = new SignalIgnoringStreams();
    const { call, fire } = deadlineRequest();
    const answer = wrap(inner).synthesizeStream!(call);
    await settled();
    fire();
    await expectGatewayError(answer, 'TTS_ERR_TIMEOUT');
    inner.giveStream(true);
    await eventually(() => {
      expect(inner.cancelled, 'the late stream should be cancelled').to.equal(1);
    });
  });

  it('cancels a stream whose first bytes come after the deadline answered 504', async () => {
    const inner = new SignalIgnoringStreams();
    const { call, fire } = deadlineRequest();
    const answer = wrap(inner).synthesizeStream!(call);
    await settled();
    inner.giveStream(true);
    await settled();
    fire();
    await expectGatewayError(answer, 'TTS_ERR_TIMEOUT');
    inner.sendBytes();
    await eventually(() => {
      expect(inner.cancelled, 'the late stream should be cancelled').to.equal(1);
    });
  });

  it('leaves a stream that came in time to its reader', async () => {
    const inner = new SignalIgnoringStreams();
    const { call } = deadlineRequest();
    const answer = wrap(inner).synthesizeStream!(call);
    await settled();
    inner.giveStream(false);
    const stream = await answer;
    const first = await stream.chunks[Symbol.asyncIterator]().next();
    expect(first.value).to.deep.equal(new Uint8Array([1, 2]));
    expect(inner.cancelled).to.equal(0);
  });
});
