import { expect } from 'chai';
import { decodeForTest, speechDurationSeconds } from '../../support/audio-analysis';
import { replayFixture } from '../../support/nock-fixtures';
import { createProvider, parseAuthorization, synthesisRequest, TEST_CREDENTIALS } from './harness';
import { expectedSignature } from './sigv4-reference';
import { pollyBaseUrl } from '../../../plugins/polly/options-schema';

describe('polly plugin: synthesis', () => {
  it('signs with SigV4 and puts speed and volume into escaped SSML prosody (mp3, neural)', async () => {
    const replay = await replayFixture('polly', 'synthesize-mp3');
    try {
      const provider = await createProvider();
      const result = await provider.synthesize(synthesisRequest({ text: 'Fish & chips <3', speed: 1.5, volume: 1.25 }));
      const [request] = replay.requests;
      expect(request.method).to.equal('POST');
      expect(request.path).to.equal('/v1/speech');
      expect(request.headers['content-type']).to.equal('application/json');
      const amzDate = request.headers['x-amz-date'];
      expect(amzDate).to.match(/^\d{8}T\d{6}Z$/);
      const authorization = parseAuthorization(request.headers.authorization);
      expect(authorization.accessKeyId).to.equal(TEST_CREDENTIALS.accessKeyId);
      expect(authorization.region).to.equal('us-east-1');
      expect(authorization.date).to.equal(amzDate.slice(0, 8));
      expect(authorization.signedHeaders).to.include.members(['host', 'x-amz-date', 'content-type']);
      expect(request.headers.authorization).not.to.contain(TEST_CREDENTIALS.secretAccessKey);
      const scope = { date: authorization.date, region: 'us-east-1', service: 'polly' };
      expect(authorization.signature).to.equal(
        expectedSignature(request, 'polly.us-east-1.amazonaws.com', TEST_CREDENTIALS.secretAccessKey, authorization.signedHeaders, scope),
      );
      expect(JSON.parse(request.body)).to.deep.equal({
        Engine: 'neural',
        OutputFormat: 'mp3',
        SampleRate: '24000',
        VoiceId: 'Joanna',
        TextType: 'ssml',
        Text: '<speak><prosody rate="150%" volume="+1.94dB">Fish &amp; chips &lt;3</prosody></speak>',
      });
      expect(result).to.include({ format: 'mp3', sampleRate: 24000 });
      expect(Buffer.from(result.audio.subarray(0, 3)).toString('latin1')).to.equal('ID3');
    } finally {
      replay.done();
    }
  });

  it('sends plain text at neutral settings and returns s16le pcm at 16 kHz (standard)', async () => {
    const replay = await replayFixture('polly', 'synthesize-pcm');
    try {
      const provider = await createProvider();
      const result = await provider.synthesize(synthesisRequest({ model: 'polly-standard', voice: 'Matthew', format: 'pcm' }));
      expect(JSON.parse(replay.requests[0].body)).to.deep.equal({
        Engine: 'standard', OutputFormat: 'pcm', SampleRate: '16000', VoiceId: 'Matthew', TextType: 'text', Text: 'Hello.',
      });
      expect(result).to.include({ format: 'pcm', sampleRate: 16000 });
      expect(result.audio.byteLength % 2).to.equal(0);
      const pcm = await decodeForTest(result.audio, 'pcm', 16000);
      expect(speechDurationSeconds(pcm)).to.be.greaterThan(0.2);
    } finally {
      replay.done();
    }
  });

  it('adds X-Amz-Security-Token to the signed headers for temporary credentials', async () => {
    const replay = await replayFixture('polly', 'synthesize-pcm');
    try {
      const provider = await createProvider({ sessionToken: 'FwoGZXIvYXdzEXAMPLESESSIONTOKEN' });
      await provider.synthesize(synthesisRequest({ model: 'polly-standard', voice: 'Matthew', format: 'pcm' }));
      const [request] = replay.requests;
      expect(request.headers['x-amz-security-token']).to.equal('FwoGZXIvYXdzEXAMPLESESSIONTOKEN');
      expect(parseAuthorization(request.headers.authorization).signedHeaders).to.include('x-amz-security-token');
    } finally {
      replay.done();
    }
  });

  it('asks for ogg_opus at 48 kHz for opus and returns the Ogg Opus as it came', async () => {
    const replay = await replayFixture('polly', 'synthesize-opus');
    try {
      const result = await (await createProvider()).synthesize(synthesisRequest({ format: 'opus' }));
      expect(JSON.parse(replay.requests[0].body)).to.deep.equal({
        Engine: 'neural', OutputFormat: 'ogg_opus', SampleRate: '48000', VoiceId: 'Joanna', TextType: 'text', Text: 'Hello.',
      });
      expect(result).to.include({ format: 'opus', sampleRate: 48000 });
      expect(Buffer.from(result.audio.subarray(0, 4)).toString('latin1')).to.equal('OggS');
      expect(Buffer.from(result.audio.subarray(28, 36)).toString('latin1')).to.equal('OpusHead');
    } finally {
      replay.done();
    }
  });

  it('calls the amazonaws.com.cn host in the China regions, signed for that region', async () => {
    const replay = await replayFixture('polly', 'synthesize-pcm-china');
    try {
      const provider = await createProvider({ region: 'cn-north-1' });
      await provider.synthesize(synthesisRequest({ model: 'polly-standard', voice: 'Matthew', format: 'pcm' }));
      const [request] = replay.requests;
      const authorization = parseAuthorization(request.headers.authorization);
      expect(authorization.region).to.equal('cn-north-1');
      const scope = { date: authorization.date, region: 'cn-north-1', service: 'polly' };
      expect(authorization.signature).to.equal(
        expectedSignature(request, 'polly.cn-north-1.amazonaws.com.cn', TEST_CREDENTIALS.secretAccessKey, authorization.signedHeaders, scope),
      );
    } finally {
      replay.done();
    }
  });

  it('derives the endpoint from the region: amazonaws.com.cn for cn-north-1 and cn-northwest-1, amazonaws.com elsewhere', () => {
    const base = { ...TEST_CREDENTIALS, timeoutMs: 5000 };
    expect(pollyBaseUrl({ ...base, region: 'cn-northwest-1' })).to.equal('https://polly.cn-northwest-1.amazonaws.com.cn');
    expect(pollyBaseUrl({ ...base, region: 'eu-central-1' })).to.equal('https://polly.eu-central-1.amazonaws.com');
    expect(pollyBaseUrl({ ...base, region: 'cn-north-1', baseUrl: 'https://polly.example.test/' })).to.equal('https://polly.example.test');
  });

  it('declares mp3, opus and pcm, speed 0.2-2.0 and volume natively, pitch never (the gateway does it)', async () => {
    const models = await (await createProvider()).models();
    expect(models.map((model) => model.name)).to.deep.equal(['polly-standard', 'polly-neural', 'polly-long-form', 'polly-generative']);
    for (const model of models) {
      expect(model.capabilities).to.deep.include({ formats: ['mp3', 'opus', 'pcm'], speed: { min: 0.2, max: 2 }, maxInputChars: 3000, maxEscapedInput: { max: 5900, unit: 'characters' } });
      expect(model.capabilities.pitch).to.equal(undefined);
    }
  });

  it('uses the configured base URL and region', async () => {
    const replay = await replayFixture('polly', 'synthesize-pcm');
    try {
      const provider = await createProvider({ region: 'us-east-1', baseUrl: 'https://polly.us-east-1.amazonaws.com/' });
      await provider.synthesize(synthesisRequest({ model: 'polly-standard', voice: 'Matthew', format: 'pcm' }));
      expect(replay.requests).to.have.length(1);
    } finally {
      replay.done();
    }
  });
});
