import { expect } from 'chai';
import { POLLY_ENGINES } from '../../../plugins/polly';
import { voicesOfEngine } from '../../../plugins/polly/voices';
import { replayFixture } from '../../support/nock-fixtures';
import { createProvider, parseAuthorization, TEST_CREDENTIALS } from './harness';
import { expectedSignature } from './sigv4-reference';

describe('polly plugin: voices', () => {
  it('follows NextToken over two pages of DescribeVoices, each call signed', async () => {
    const replay = await replayFixture('polly', 'voices');
    try {
      const voices = await (await createProvider()).voices('polly-neural');
      expect(replay.requests.map((request) => request.path)).to.deep.equal([
        '/v1/voices?Engine=neural',
        '/v1/voices?Engine=neural&NextToken=AAEAAfX1f3Jk3Q0o%2BwL2Y%2F3Pn7w%3D',
      ]);
      for (const request of replay.requests) {
        const authorization = parseAuthorization(request.headers.authorization);
        expect(authorization.signedHeaders).to.include('host');
        const scope = { date: authorization.date, region: 'us-east-1', service: 'polly' };
        // The NextToken holds + / =: the signature must cover the query exactly as sent.
        expect(authorization.signature).to.equal(
          expectedSignature(request, 'polly.us-east-1.amazonaws.com', TEST_CREDENTIALS.secretAccessKey, authorization.signedHeaders, scope),
        );
      }
      expect(voices.map((voice) => voice.voiceId)).to.deep.equal(['Joanna', 'Matthew', 'Kajal', 'Hala']);
      expect(voices[0]).to.deep.equal({
        voiceId: 'Joanna', voiceName: 'Joanna', language: 'en-US', gender: 'Female', description: 'Amazon Polly neural voice, US English',
      });
      expect(voices[2].description).to.contain('also speaks hi-IN');
    } finally {
      replay.done();
    }
  });

  it('keeps only voices of the engine and turns en-GB-WLS into a BCP 47 tag', () => {
    const standard = POLLY_ENGINES[0];
    const voices = voicesOfEngine(
      [
        { Id: 'Geraint', Name: 'Geraint', Gender: 'Male', LanguageCode: 'en-GB-WLS', LanguageName: 'Welsh English', SupportedEngines: ['standard'] },
        { Id: 'Ruth', Name: 'Ruth', Gender: 'Female', LanguageCode: 'en-US', LanguageName: 'US English', SupportedEngines: ['neural', 'generative'] },
      ],
      standard,
    );
    expect(voices).to.deep.equal([
      { voiceId: 'Geraint', voiceName: 'Geraint', language: 'en-GB', gender: 'Male', description: 'Amazon Polly standard voice, Welsh English' },
    ]);
  });

  it('rejects an unknown model', async () => {
    const error = await (await createProvider()).voices('polly-turbo').catch((caught: unknown) => caught);
    expect(error).to.have.property('code', 'TTS_ERR_MODEL_NOT_FOUND');
  });
});
