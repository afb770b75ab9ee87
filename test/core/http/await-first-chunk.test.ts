import { expect } from 'chai';
import { awaitFirstChunk, GatewayError } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';

function source(log: string[], fail?: GatewayError): AsyncGenerator<Uint8Array> {
  return (async function* () {
    try {
      if (fail) throw fail;
      yield new Uint8Array(0);
      yield new Uint8Array([1]);
      yield new Uint8Array([2]);
    } finally {
      log.push('closed');
    }
  })();
}

describe('core/http: awaitFirstChunk', () => {
  it('reads the first non-empty piece before handing the stream on, then gives every piece in order', async () => {
    const log: string[] = [];
    const chunks = await awaitFirstChunk('Local', source(log));
    const read: number[] = [];
    for await (const chunk of chunks) read.push(...chunk);
    expect(read).to.deep.equal([1, 2]);
    expect(log).to.deep.equal(['closed']);
  });

  it('throws an error that comes before the first piece when called', async () => {
    const failure = new GatewayError('TTS_ERR_UPSTREAM', 'the provider failed');
    let thrown: unknown;
    await awaitFirstChunk('Local', source([], failure)).catch((error: unknown) => (thrown = error));
    expect(thrown).to.equal(failure);
  });

  it('closes the stream underneath when the consumer stops before reading anything', async () => {
    const log: string[] = [];
    const chunks = await awaitFirstChunk('Local', source(log));
    await chunks[Symbol.asyncIterator]().return?.();
    expect(log).to.deep.equal(['closed']);
  });

  it('answers a stream that ends without a byte as an unusable answer', async () => {
    const empty = (async function* () {
      yield new Uint8Array(0);
    })();
    await expectGatewayError(awaitFirstChunk('Local', empty), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });
});
