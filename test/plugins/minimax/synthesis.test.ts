import { expect } from 'chai';
import { sniffAudioFormat } from '../../../core';
import { replayFixture } from '../../support/nock-fixtures';
import { createProvider, synthesisRequest } from './harness';

const ascii = (bytes: Uint8Array, start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');

describe('minimax plugin: synthesis', () => {
  it('sends t2a_v2 with a bearer key and decodes the hex mp3', async () => {
    const replay = await replayFixture('minimax', 'synthesize-mp3');
    try {
      const provider = await createProvider();
      const result = await provider.synthesize(synthesisRequest());
      expect(result.format).to.equal('mp3');
      expect(result.sampleRate).to.equal(undefined);
      expect(result.warnings).to.deep.equal([]);
      expect(sniffAudioFormat(result.audio)).to.equal('mp3');
      const sent = replay.requests[0];
      expect(sent.method).to.equal('POST');
      expect(sent.path).to.equal('/v1/t2a_v2');
      expect(sent.headers.authorization).to.equal('Bearer mm-test-key-0123456789');
      expect(sent.headers['content-type']).to.equal('application/json');
      const body = JSON.parse(sent.body);
      expect(body.voice_setting).to.deep.equal({ voice_id: 'English_Graceful_Lady' });
      expect(body.audio_setting).to.deep.equal({ sample_rate: 32000, bitrate: 128000, format: 'mp3', channel: 1 });
      expect(body).to.not.have.nested.property('voice_setting.vol');
    } finally {
      replay.done();
    }
  });

  it('maps speed as is and pitch to whole semitones, warning when it rounds (pcm carries its rate)', async () => {
    const replay = await replayFixture('minimax', 'synthesize-pcm');
    try {
      const provider = await createProvider({ sampleRate: 16000 });
      const result = await provider.synthesize(synthesisRequest({ text: 'Hello.', voice: 'male-qn-qingse', format: 'pcm', speed: 1.25, pitch: 1.1 }));
      expect(result.format).to.equal('pcm');
      expect(result.sampleRate).to.equal(16000);
      expect(result.audio.byteLength % 2).to.equal(0);
      expect(result.warnings).to.have.length(1);
      expect(result.warnings[0]).to.contain('+2 semitones');
      const body = JSON.parse(replay.requests[0].body);
      expect(body.voice_setting).to.deep.equal({ voice_id: 'male-qn-qingse', speed: 1.25, pitch: 2 });
    } finally {
      replay.done();
    }
  });

  it('sends GroupId for group-bound keys; pitch 0.5 is exactly -12 semitones; wav bytes are RIFF', async () => {
    const replay = await replayFixture('minimax', 'synthesize-wav-group');
    try {
      const provider = await createProvider({ sampleRate: 16000, groupId: '1782588508838707' });
      const result = await provider.synthesize(synthesisRequest({ text: 'Hello.', format: 'wav', pitch: 0.5 }));
      expect(result.warnings).to.deep.equal([]);
      expect(ascii(result.audio, 0, 4)).to.equal('RIFF');
      expect(ascii(result.audio, 8, 12)).to.equal('WAVE');
      expect(replay.requests[0].path).to.equal('/v1/t2a_v2?GroupId=1782588508838707');
      expect(JSON.parse(replay.requests[0].body).voice_setting.pitch).to.equal(-12);
    } finally {
      replay.done();
    }
  });

  it('talks to the China endpoint when configured and returns flac', async () => {
    const replay = await replayFixture('minimax', 'synthesize-flac-china');
    try {
      const provider = await createProvider({ baseUrl: 'https://api.minimaxi.com/v1/' });
      const result = await provider.synthesize(synthesisRequest({ model: 'speech-02-turbo', voice: 'female-shaonv', text: 'Hello.', format: 'flac' }));
      expect(result.format).to.equal('flac');
      expect(ascii(result.audio, 0, 4)).to.equal('fLaC');
    } finally {
      replay.done();
    }
  });
});
