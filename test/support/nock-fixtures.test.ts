import { expect } from 'chai';
import type { Definition } from 'nock';
import { replayFixture, scrubCredentials } from './nock-fixtures';

/** Sends the echo fixture's request with `headers`; true when nock answered it from the fixture. */
async function echoAnswered(headers: Record<string, string>): Promise<boolean> {
  const replay = await replayFixture('selftest', 'echo');
  try {
    const response = await fetch('https://api.acme.test/v1/speak?format=mp3', { method: 'POST', headers, body: JSON.stringify({ text: 'hello' }) });
    return response.status === 200;
  } catch {
    return false;
  } finally {
    try { replay.done(); } catch { /* an unmatched scope is what some cases expect */ }
  }
}

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

  it('matches the recorded request headers that matter: a missing credential fails the replay', async () => {
    expect(await echoAnswered({ 'content-type': 'application/json', authorization: 'Bearer another-key' })).to.equal(true);
    expect(await echoAnswered({ 'content-type': 'application/json' })).to.equal(false);
  });

  it('keeps the credential scheme and the other recorded headers exact', async () => {
    expect(await echoAnswered({ 'content-type': 'application/json', authorization: 'Token k' })).to.equal(false);
    expect(await echoAnswered({ 'content-type': 'application/json', authorization: 'Bearer ' })).to.equal(false);
    expect(await echoAnswered({ 'content-type': 'text/plain', authorization: 'Bearer k' })).to.equal(false);
  });

  it('records only the headers that matter, credentials scrubbed but their scheme kept', () => {
    const [scrubbed] = scrubCredentials([
      {
        scope: 'https://api.acme.test:443',
        method: 'POST',
        path: '/v1/speak',
        status: 200,
        reqheaders: {
          Authorization: 'Bearer sk-live-0123456789',
          'xi-api-key': 'xi-0123456789',
          'x-amz-date': '20251121T054000Z',
          'Content-Type': 'application/json',
          'cartesia-version': '2026-03-01',
          'user-agent': 'undici',
          'content-length': '17',
        },
      } as Definition & { reqheaders: Record<string, string> },
    ]);
    expect((scrubbed as Definition & { reqheaders?: Record<string, string> }).reqheaders).to.deep.equal({
      authorization: 'Bearer test-credential',
      'xi-api-key': 'test-credential',
      'x-amz-date': 'test-credential',
      'content-type': 'application/json',
      'cartesia-version': '2026-03-01',
    });
  });
});
