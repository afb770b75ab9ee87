import { expect } from 'chai';
import { GatewayError } from '../../../core';
import { abortedByDeadline } from '../../../core/abort/linked-abort';
import { collect, fixture, gate, LONG_TEXT, request, wavBytes } from './streaming-fixture';

describe('core/synthesis streaming', () => {
  it('splits text into short first and growing later chunks and encodes them in order through one session', async () => {
    const { service, recorder } = fixture();
    const stream = await service.stream(request(), { requestId: 'r1' });
    const output = await collect(stream.chunks);
    const texts = recorder.requests.map((call) => call.text);
    expect(texts.length).to.be.greaterThan(2);
    expect([...texts[0]].length).to.be.at.most(100);
    expect(texts.join(' ')).to.equal(LONG_TEXT);
    expect(recorder.sessions).to.have.length(1);
    const [session] = recorder.sessions;
    expect(session.pushed.map((chunk) => Buffer.from(chunk.audio.subarray(44)).toString())).to.deep.equal(texts);
    expect(session.ended).to.equal(true);
    expect(output).to.equal(`${texts.map((_text, index) => `encoded ${index + 1};`).join('')}tail;`);
    expect(stream.progress.bytes).to.equal(Buffer.byteLength(output));
    expect(stream.applied.chunks).to.equal(texts.length);
  });

  it('streams a text of many chunks without a listener-leak warning (each call is linked to the stream by design)', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const text = Array.from({ length: 300 }, (_value, index) => `Sentence ${index + 1} is here.`).join(' ');
      const { service, recorder } = fixture();
      const stream = await service.stream(request({ text }), { requestId: 'r-many', signal: new AbortController().signal });
      await collect(stream.chunks);
      expect(recorder.requests.length).to.be.greaterThan(11);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning').map((warning) => warning.message)).to.deep.equal([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('hands the first audio on before the last chunk is synthesized', async () => {
    const last = gate();
    let count = 0;
    const { service, recorder } = fixture({
      synthesize: async (call, index) => {
        count = Math.max(count, index + 1);
        // The final chunk waits until the client has audio in hand.
        if (index >= 2 && call.text.includes('12 of')) await last.promise;
        return wavBytes(call.text);
      },
    });
    const stream = await service.stream(request(), { requestId: 'r2' });
    const iterator = stream.chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    recorder.events.push('first piece received');
    expect(first.done).to.equal(false);
    last.open();
    for (let next = await iterator.next(); !next.done; next = await iterator.next());
    const firstPiece = recorder.events.indexOf('first piece received');
    const lastFinished = recorder.events.lastIndexOf(`call ${recorder.requests.length - 1} finished`);
    expect(firstPiece).to.be.greaterThan(-1);
    expect(firstPiece).to.be.lessThan(lastFinished);
    expect(count).to.equal(recorder.requests.length);
  });

  it('lets a started stream outlast the deadline: its start is bounded, not a slow reader', async () => {
    const { service, recorder } = fixture({ timeoutMs: 50 });
    const stream = await service.stream(request(), { requestId: 'r-late', signal: new AbortController().signal });
    const iterator = stream.chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    // The reader pauses past the deadline before it reads on.
    await new Promise((resolve) => setTimeout(resolve, 80));
    const pieces = [first.value as Uint8Array];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) pieces.push(next.value);
    expect(recorder.requests.length).to.be.greaterThan(2);
    // The calls ahead are cancelled when the stream ends (by design), never by the clock.
    expect(recorder.requests.some((call) => abortedByDeadline(call.signal))).to.equal(false);
    expect(Buffer.concat(pieces).toString().endsWith('tail;')).to.equal(true);
  });

  it('synthesizes only a bounded number of chunks ahead of a reader that does not read', async () => {
    const { service, recorder } = fixture({ chunkConcurrency: 2 });
    const stream = await service.stream(request(), { requestId: 'r3' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The first piece is out; at most two more calls run ahead of it.
    expect(recorder.requests.length).to.be.at.most(3);
    await collect(stream.chunks);
  });

  it('runs no calls ahead while more streams are open than the shared look-ahead allows, and ahead again once they end', async () => {
    // The first calls answer once all twelve streams have started: every stream is open by then.
    const allStarted = gate();
    const { service, recorder } = fixture({
      chunkConcurrency: 2,
      synthesize: async (call, index) => {
        if (index === 11) allStarted.open();
        await allStarted.promise;
        return wavBytes(call.text);
      },
    });
    const streams = await Promise.all(Array.from({ length: 12 }, (_value, index) => service.stream(request(), { requestId: `many-${index}` })));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const callsOf = (requestId: string): number => recorder.requests.filter((call) => call.requestId === requestId).length;
    // Each stream's first piece is out and nobody reads: each made only the call for that piece.
    expect(streams.map((_stream, index) => callsOf(`many-${index}`))).to.deep.equal(new Array(12).fill(1));
    const iterators = streams.map((stream) => stream.chunks[Symbol.asyncIterator]());
    for (const iterator of iterators.slice(1)) {
      await iterator.next();
      await iterator.return?.(undefined);
    }
    // Alone now: taking its next chunk starts the one after it too.
    const [last] = iterators;
    await last.next();
    await last.next();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(callsOf('many-0')).to.equal(3);
    for (let next = await last.next(); !next.done; next = await last.next());
  });

  /** Stops reading a stream whose later chunks are slow, by `stopReading`; what was left running then. */
  async function afterStopping(stopReading: (chunks: AsyncIterable<Uint8Array>) => Promise<void>) {
    const signals: AbortSignal[] = [];
    const { service, recorder } = fixture({
      synthesize: async (call, index) => {
        signals.push(call.signal);
        if (index > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        return wavBytes(call.text);
      },
    });
    const stream = await service.stream(request(), { requestId: 'r4' });
    await stopReading(stream.chunks);
    const callsAtStop = recorder.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    return { callsAtStop, recorder, signals };
  }

  it('stops the provider calls and releases the session when the reader stops', async () => {
    const { callsAtStop, recorder, signals } = await afterStopping(async (chunks) => {
      for await (const _chunk of chunks) break;
    });
    expect(recorder.requests.length).to.equal(callsAtStop);
    expect(recorder.sessions[0].closed).to.equal(true);
    expect(recorder.sessions[0].ended).to.equal(false);
    expect(signals.every((signal) => signal.aborted)).to.equal(true);
  });

  it('stops the provider calls and releases the session when the stream is closed before it was read', async () => {
    const { callsAtStop, recorder, signals } = await afterStopping(async (chunks) => {
      await chunks[Symbol.asyncIterator]().return?.(undefined);
    });
    expect(recorder.requests.length).to.equal(callsAtStop);
    expect(recorder.sessions[0].closed).to.equal(true);
    expect(signals.every((signal) => signal.aborted)).to.equal(true);
  });

  it('stops when the client goes away', async () => {
    const client = new AbortController();
    const signals: AbortSignal[] = [];
    const { service, recorder } = fixture({
      synthesize: async (call, index) => {
        signals.push(call.signal);
        if (index > 0) await new Promise((_resolve, reject) => call.signal.addEventListener('abort', () => reject(new GatewayError('TTS_ERR_CANCELLED', 'gone'))));
        return wavBytes(call.text);
      },
    });
    const stream = await service.stream(request(), { requestId: 'r5', signal: client.signal });
    const iterator = stream.chunks[Symbol.asyncIterator]();
    await iterator.next();
    client.abort();
    const failure = await iterator.next().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((failure as GatewayError).code).to.equal('TTS_ERR_CANCELLED');
    expect(recorder.sessions[0].closed).to.equal(true);
    expect(signals.every((signal) => signal.aborted)).to.equal(true);
  });

  it('fails the iteration with the provider error when a later chunk fails', async () => {
    const { service, recorder } = fixture({
      synthesize: async (call, index) => {
        if (index === 2) throw new GatewayError('TTS_ERR_UPSTREAM', 'provider broke');
        return wavBytes(call.text);
      },
    });
    const stream = await service.stream(request(), { requestId: 'r6' });
    const failure = await collect(stream.chunks).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((failure as GatewayError).code).to.equal('TTS_ERR_UPSTREAM');
    expect(recorder.sessions[0].closed).to.equal(true);
    expect(recorder.sessions[0].ended).to.equal(false);
  });

  it('rejects before any audio when the model, the voice or the first chunk fails', async () => {
    const { service } = fixture({
      synthesize: async () => {
        throw new GatewayError('TTS_ERR_UPSTREAM_AUTH', 'bad upstream key');
      },
    });
    const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: GatewayError) => error.code);
    expect(await codeOf(service.stream(request({ model: 'nope' }), { requestId: 'r7' }))).to.equal('TTS_ERR_MODEL_NOT_FOUND');
    expect(await codeOf(service.stream(request({ voice: 'nope' }), { requestId: 'r7' }))).to.equal('TTS_ERR_VOICE_NOT_FOUND');
    expect(await codeOf(service.stream(request(), { requestId: 'r7' }))).to.equal('TTS_ERR_UPSTREAM_AUTH');
  });
});
