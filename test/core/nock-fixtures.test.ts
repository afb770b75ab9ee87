import { expect } from 'chai';
import { replayFixture } from '../support/nock-fixtures';

describe('test support: nock back fixtures', () => {
  it('replays a recorded binary answer and captures the outgoing request', async () => {
    const replay = await replayFixture('selftest', 'echo');
    try {
      const response = await fetch('https://api.acme.test/v1/speak?format=mp3', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
        body: JSON.stringify({ text: 'hello' }),
      });
      expect(response.headers.get('content-type')).to.equal('audio/mpeg');
      expect(Buffer.from(await response.arrayBuffer()).toString('hex')).to.equal('494433');
      expect(replay.requests).to.have.length(1);
      expect(replay.requests[0].headers.authorization).to.equal('Bearer k');
      expect(JSON.parse(replay.requests[0].body)).to.deep.equal({ text: 'hello' });
      expect(replay.requests[0].path).to.equal('/v1/speak?format=mp3');
    } finally {
      replay.done();
    }
  });

  it('rejects a request the fixture does not hold (body mismatch)', async () => {
    const replay = await replayFixture('selftest', 'echo');
    try {
      let failed = false;
      await fetch('https://api.acme.test/v1/speak?format=mp3', { method: 'POST', body: JSON.stringify({ text: 'other' }) }).catch(() => {
        failed = true;
      });
      expect(failed).to.equal(true);
    } finally {
      try { replay.done(); } catch { /* the unmatched scope is expected here */ }
    }
  });
});
