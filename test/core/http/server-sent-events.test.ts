import { expect } from 'chai';
import { serverSentEvents, type ServerSentEvent } from '../../../core';

async function* pieces(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

async function parse(...parts: string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of serverSentEvents(pieces(...parts))) events.push(event);
  return events;
}

describe('core/http: server-sent events', () => {
  const stream = 'data: {"a":1}\n\n: a comment\nevent: done\ndata: first line\ndata:second line\n\n';
  const expected = [
    { type: 'message', data: '{"a":1}' },
    { type: 'done', data: 'first line\nsecond line' },
  ];

  it('parses data, event and comment lines; joins data lines; drops one space after the colon', async () => {
    expect(await parse(stream)).to.deep.equal(expected);
  });

  it('gives the same events wherever the body is cut into two pieces', async () => {
    for (let cut = 0; cut <= stream.length; cut += 1) {
      expect(await parse(stream.slice(0, cut), stream.slice(cut)), `cut at ${cut}`).to.deep.equal(expected);
    }
  });

  it('takes CRLF, CR and LF line ends, a CRLF split between pieces being one line end', async () => {
    expect(await parse('data: a\r\n\r\ndata: b\r\rdata: c\n\n')).to.deep.equal([
      { type: 'message', data: 'a' },
      { type: 'message', data: 'b' },
      { type: 'message', data: 'c' },
    ]);
    expect(await parse('data: a\r', '\ndata: b\r', '\n\r', '\n')).to.deep.equal([{ type: 'message', data: 'a\nb' }]);
  });

  it('keeps multi-byte characters cut between pieces whole', async () => {
    const bytes = new TextEncoder().encode('data: 語音\n\n');
    async function* split(): AsyncGenerator<Uint8Array> {
      yield bytes.subarray(0, 8);
      yield bytes.subarray(8);
    }
    const events: ServerSentEvent[] = [];
    for await (const event of serverSentEvents(split())) events.push(event);
    expect(events).to.deep.equal([{ type: 'message', data: '語音' }]);
  });

  it('does not dispatch an event the body ends in the middle of, nor one without data', async () => {
    expect(await parse('data: whole\n\nevent: empty\n\ndata: cut short\n')).to.deep.equal([{ type: 'message', data: 'whole' }]);
  });
});
