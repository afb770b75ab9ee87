import { expect } from 'chai';
import { unexpectedErrorFields } from '../../server/unexpected-error';

describe('server/unexpected-error', () => {
  it('names the error, its message without key-like strings, and the file and line it was thrown at', () => {
    const error = new RangeError('offset out of range for key sk-abcdef1234567890');
    const fields = unexpectedErrorFields(error);
    expect(fields).to.include({ errorName: 'RangeError', errorMessage: 'offset out of range for key [redacted]' });
    expect(fields.thrownAt).to.match(/^test\/server\/unexpected-error\.test\.js:\d+$/);
  });

  it('gives a package frame from the package, and a frame without a function name as well', () => {
    const error = new Error('failed');
    error.stack = 'Error: failed\n    at /srv/gateway/node_modules/pg/lib/client.js:526:17\n    at run (/srv/gateway/dist/core/x.js:3:1)';
    expect(unexpectedErrorFields(error).thrownAt).to.equal('node_modules/pg/lib/client.js:526');
  });

  it('describes a thrown value that is not an Error by its type, with no frame', () => {
    expect(unexpectedErrorFields('token key_live_abcdefgh went wrong')).to.deep.equal({ errorName: 'string', errorMessage: 'token [redacted] went wrong' });
  });

  it('leaves out the frame when the stack has none', () => {
    const error = new Error('no frames');
    error.stack = 'Error: no frames';
    expect(unexpectedErrorFields(error)).to.deep.equal({ errorName: 'Error', errorMessage: 'no frames' });
  });
});
