import { expect } from 'chai';
import { ProviderHealth } from '../../../core';

describe('core/health ProviderHealth', () => {
  let clock = 1_000;
  const health = () => new ProviderHealth(() => clock);

  it('reports a provider that serves models as ready, one whose listing failed as unavailable with the reason', () => {
    const board = health();
    board.add('espeak', 1);
    board.add('openai', 0, 'GET /v1/models answered 401');
    expect(board.list()).to.deep.equal([
      { id: 'espeak', status: 'ready', models: 1 },
      { id: 'openai', status: 'unavailable', models: 0, lastError: 'GET /v1/models answered 401', lastErrorAt: 1_000 },
    ]);
  });

  it('keeps the last error without changing the state, and follows explicit (un)availability', () => {
    const board = health();
    board.add('openai', 3);
    clock = 2_000;
    board.recordError('openai', 'TTS_ERR_UPSTREAM: 500');
    expect(board.list()[0]).to.deep.equal({ id: 'openai', status: 'ready', models: 3, lastError: 'TTS_ERR_UPSTREAM: 500', lastErrorAt: 2_000 });
    board.setAvailable('openai', false);
    expect(board.list()[0].status).to.equal('unavailable');
    board.setAvailable('openai', true);
    expect(board.list()[0].status).to.equal('ready');
  });

  it('stays unavailable without models, and becomes ready once re-listing finds some', () => {
    const board = health();
    board.add('kokoro', 0, 'connection refused');
    board.setAvailable('kokoro', true);
    expect(board.list()[0].status).to.equal('unavailable');
    board.setAvailable('kokoro', true, 2);
    expect(board.list()[0]).to.include({ status: 'ready', models: 2, lastError: 'connection refused' });
  });

  it('ignores unknown providers and shortens long messages', () => {
    const board = health();
    board.recordError('nobody', 'x');
    board.add('edge', 1);
    board.recordError('edge', 'e'.repeat(1000));
    expect(board.list()).to.have.length(1);
    expect(board.list()[0].lastError).to.have.length(300);
  });
});
