import { expect } from 'chai';
import { headerRecord, headersOfRaw, rawHeader } from '../../../core/http/header-records';

/** What fetch itself would send for `init`, in name order: the oracle every record is held to. */
const asFetchSees = (init: RequestInit['headers']): Array<[string, string]> => [...new Headers(init)];
const entriesOf = (record: Record<string, string>): Array<[string, string]> => Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1));

describe('core/http header records', () => {
  const inits: Array<[string, RequestInit['headers']]> = [
    ['a plain object', { Authorization: 'Bearer sk-1', 'Content-Type': 'application/json' }],
    ['an empty object', {}],
    ['a Headers object', new Headers({ 'X-Api-Key': 'k-1', accept: 'audio/mpeg' })],
    ['pairs, one name twice', [['x-one', 'a'], ['X-One', 'b']]],
    ['one name twice in two cases', { 'x-two': 'a', 'X-Two': 'b' }],
    ['values to trim', { 'x-padded': '  value\t', 'x-empty': '' }],
    ['a value beyond ASCII', { 'x-latin': 'caf\u00e9' }],
    // Parsed: in an object literal, `__proto__` would set the prototype instead.
    ['names an object has', JSON.parse('{"constructor":"c","__proto__":"p","toString":"t"}') as Record<string, string>],
  ];
  for (const [kind, init] of inits) {
    it(`reads ${kind} as fetch does`, () => {
      expect(entriesOf(headerRecord(init))).to.deep.equal(asFetchSees(init));
    });
  }

  it('reads nothing as no headers', () => {
    expect(entriesOf(headerRecord(undefined))).to.deep.equal([]);
  });

  it('refuses what fetch refuses', () => {
    expect(() => headerRecord({ 'bad name': 'x' })).to.throw(TypeError);
    expect(() => headerRecord({ 'x-split': 'a\r\nb' })).to.throw(TypeError);
    expect(() => headerRecord({ 'x-wide': '\u20ac' })).to.throw(TypeError);
  });

  it('makes a Headers of an answer, repeated headers appended in order', () => {
    const headers = headersOfRaw({ 'content-type': 'audio/mpeg', 'set-cookie': ['a=1', 'b=2'], skipped: undefined });
    expect(headers.get('content-type')).to.equal('audio/mpeg');
    expect(headers.getSetCookie()).to.deep.equal(['a=1', 'b=2']);
    expect(headers.has('skipped')).to.equal(false);
    expect(headersOfRaw({ 'retry-after': '3' }).get('retry-after')).to.equal('3');
  });

  it('makes a Headers of an answer with a value beyond latin1, its UTF-8 bytes read as latin1 as fetch reads them', () => {
    // undici's request API decodes values as UTF-8; fetch reads the same bytes as latin1.
    const headers = headersOfRaw({ 'content-type': 'audio/mpeg', 'x-euro': '\u20ac', via: ['a', '\u20ac'] });
    expect(headers.get('x-euro')).to.equal(Buffer.from('\u20ac', 'utf8').toString('latin1'));
    expect(headers.get('via')).to.equal(`a, ${Buffer.from('\u20ac', 'utf8').toString('latin1')}`);
    expect(headers.get('content-type')).to.equal('audio/mpeg');
  });

  it("reads one header of an answer as Headers.get would", () => {
    const raw = { 'content-encoding': 'gzip', via: ['a', 'b'] };
    expect(rawHeader(raw, 'content-encoding')).to.equal('gzip');
    expect(rawHeader(raw, 'via')).to.equal(headersOfRaw(raw).get('via'));
    expect(rawHeader(raw, 'missing')).to.equal(undefined);
  });
});
