import { expect } from 'chai';
import nock from 'nock';
import { replayFixture } from '../../support/nock-fixtures';
import { decodeForTest, parseWavHeader, speechDurationSeconds } from '../../support/audio-analysis';
import { createProvider, synthesisRequest, TEST_KEY } from './harness';

describe('google plugin: synthesis', () => {
  it('maps speed, pitch and volume to speakingRate, semitones and dB and returns the WAV of LINEAR16', async () => {
    const replay = await replayFixture('google', 'synthesize-wav');
    try {
      const provider = await createProvider();
      const result = await provider.synthesize(
        synthesisRequest({ model: 'google-wavenet', voice: 'en-US-Wavenet-D', format: 'wav', speed: 1.5, pitch: 1.25, volume: 0.8 }),
      );
      const [request] = replay.requests;
      expect(request.method).to.equal('POST');
      expect(request.path).to.equal('/v1/text:synthesize');
      expect(request.headers['x-goog-api-key']).to.equal(TEST_KEY);
      expect(request.headers['content-type']).to.match(/^application\/json/);
      expect(JSON.parse(request.body)).to.deep.equal({
        input: { text: 'Hello.' },
        voice: { languageCode: 'en-US', name: 'en-US-Wavenet-D' },
        audioConfig: { audioEncoding: 'LINEAR16', speakingRate: 1.5, pitch: 3.86, volumeGainDb: -1.94 },
      });
      expect(result.format).to.equal('wav');
      expect(result.warnings).to.deep.equal([]);
      expect(Buffer.from(result.audio.subarray(0, 4)).toString('latin1')).to.equal('RIFF');
      expect(parseWavHeader(result.audio).sampleRate).to.equal(24000);
      const pcm = await decodeForTest(result.audio, 'wav');
      expect(speechDurationSeconds(pcm)).to.be.greaterThan(0.2);
    } finally {
      replay.done();
    }
  });

  it('sends no pitch for Chirp 3 HD voices (they reject it) and returns MP3', async () => {
    const replay = await replayFixture('google', 'synthesize-mp3');
    try {
      const provider = await createProvider();
      const models = await provider.models();
      const chirp3 = models.find((model) => model.name === 'google-chirp3-hd');
      expect(chirp3?.capabilities.pitch).to.equal(undefined);
      expect(chirp3?.capabilities.speed).to.deep.equal({ min: 0.25, max: 2 });
      const result = await provider.synthesize(
        synthesisRequest({ model: 'google-chirp3-hd', voice: 'en-US-Chirp3-HD-Charon', format: 'mp3', speed: 1.25, pitch: 1.5 }),
      );
      expect(JSON.parse(replay.requests[0].body).audioConfig).to.deep.equal({ audioEncoding: 'MP3', speakingRate: 1.25 });
      expect(result.format).to.equal('mp3');
      expect(result.warnings).to.have.length(1);
      expect(result.warnings[0]).to.contain('pitch');
      const head = result.audio;
      const isMp3 = (head[0] === 0x49 && head[1] === 0x44 && head[2] === 0x33) || (head[0] === 0xff && (head[1] & 0xe0) === 0xe0);
      expect(isMp3).to.equal(true);
    } finally {
      replay.done();
    }
  });

  it('asks for OGG_OPUS for opus and sends no prosody fields at neutral settings', async () => {
    const replay = await replayFixture('google', 'synthesize-opus');
    try {
      const provider = await createProvider();
      const result = await provider.synthesize(synthesisRequest({ model: 'google-neural2', voice: 'en-GB-Neural2-A', format: 'opus' }));
      expect(JSON.parse(replay.requests[0].body)).to.deep.equal({
        input: { text: 'Hello.' },
        voice: { languageCode: 'en-GB', name: 'en-GB-Neural2-A' },
        audioConfig: { audioEncoding: 'OGG_OPUS' },
      });
      expect(Buffer.from(result.audio.subarray(0, 4)).toString('latin1')).to.equal('OggS');
      expect(result.format).to.equal('opus');
    } finally {
      replay.done();
    }
  });

  it('decodes a 6 MB audioContent (over 90 s of LINEAR16) instead of failing on its size', async () => {
    // 4.5 MB of 16-bit samples at 24 kHz behind a WAV header: base64 makes it 6 MB of text.
    const wav = Buffer.alloc(44 + 4_500_000);
    wav.write('RIFF', 0, 'latin1');
    wav.write('WAVEfmt ', 8, 'latin1');
    for (let offset = 44; offset < wav.length; offset += 2) wav.writeInt16LE(Math.round(8000 * Math.sin(offset / 20)), offset);
    const audioContent = wav.toString('base64');
    expect(audioContent.length).to.be.greaterThan(6_000_000);
    const scope = nock('https://texttospeech.googleapis.com').post('/v1/text:synthesize').reply(200, { audioContent }, { 'content-type': 'application/json; charset=UTF-8' });
    try {
      const result = await (await createProvider()).synthesize(synthesisRequest({ format: 'wav' }));
      expect(Buffer.from(result.audio).equals(wav)).to.equal(true);
      scope.done();
    } finally {
      nock.cleanAll();
    }
  });

  it('declares the 5,000-byte input limit and the native ranges per family', async () => {
    const models = await (await createProvider()).models();
    expect(models.map((model) => model.name)).to.include.members(['google-standard', 'google-wavenet', 'google-chirp3-hd', 'google-chirp-hd']);
    for (const model of models) {
      expect(model.capabilities.maxInputBytes).to.equal(5000);
      expect(model.capabilities.formats).to.deep.equal(['wav', 'mp3', 'opus']);
    }
    const standard = models.find((model) => model.name === 'google-standard');
    expect(standard?.capabilities.pitch?.min).to.be.closeTo(0.315, 0.001);
    expect(standard?.capabilities.pitch?.max).to.be.closeTo(3.175, 0.001);
    const chirpHd = models.find((model) => model.name === 'google-chirp-hd');
    expect(chirpHd?.capabilities.speed).to.equal(undefined);
    expect(chirpHd?.capabilities.pitch).to.equal(undefined);
  });

  it('refuses a voice of another family without calling Google', async () => {
    const provider = await createProvider();
    const error = await provider.synthesize(synthesisRequest({ model: 'google-studio', voice: 'en-US-Wavenet-D' })).catch((caught: unknown) => caught);
    expect(error).to.have.property('code', 'TTS_ERR_VOICE_NOT_FOUND');
  });
});
