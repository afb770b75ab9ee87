import { expect } from 'chai';
import { chunkLimitsOf, splitText } from '../../../core';
import polly from '../../../plugins/polly';
import { pluginTestContext } from '../../support/plugin-test-context';
import { synthesisRequest } from './harness';
import { standInFetch, standInOptions } from './stand-in';

/** SynthesizeSpeech's limits (TextLengthExceededException): 6,000 characters of Text in all. */
const POLLY_TOTAL_LIMIT = 6000;

/** The stand-in, plus Polly's length check: a Text over 6,000 characters is a 400 TextLengthExceededException. */
function lengthCheckingFetch(sentTexts: string[]): typeof fetch {
  const answer = standInFetch();
  return async (input, init) => {
    if (String(input).endsWith('/v1/speech')) {
      const { Text } = JSON.parse(String(init?.body)) as { Text: string };
      sentTexts.push(Text);
      if (Text.length > POLLY_TOTAL_LIMIT) {
        return new Response(JSON.stringify({ message: 'Maximum text length has been exceeded' }), {
          status: 400,
          headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'TextLengthExceededException:http://internal.amazon.com/coral/com.amazonaws.tts/' },
        });
      }
    }
    return answer(input, init);
  };
}

describe('polly plugin: text length after SSML escaping', () => {
  for (const [label, character] of [['ampersands', '&'], ['less-than signs', '<'], ['quotes', '"']] as const) {
    it(`keeps every chunk of a text of ${label}, escaped inside <prosody>, within Polly's 6,000 characters`, async () => {
      const sentTexts: string[] = [];
      const provider = await polly.create(standInOptions, pluginTestContext('polly', lengthCheckingFetch(sentTexts)));
      const [model] = await provider.models();
      // The gateway splits by the declared limit, then the plugin escapes each chunk.
      const chunks = splitText(`${character.repeat(2999)}.`, chunkLimitsOf(model.capabilities));
      for (const text of chunks) {
        await provider.synthesize(synthesisRequest({ model: model.name, text, speed: 0.2, volume: 0.5, format: 'pcm' }));
      }
      expect(sentTexts.length).to.equal(chunks.length);
      for (const text of sentTexts) expect(text.length).to.be.at.most(POLLY_TOTAL_LIMIT);
    });
  }

  it('still sends plain text (nothing to escape) in chunks of 3,000 characters', async () => {
    const provider = await polly.create(standInOptions, pluginTestContext('polly', standInFetch()));
    const [model] = await provider.models();
    const sentence = 'The quick brown fox jumps over the lazy dog. ';
    const chunks = splitText(sentence.repeat(200), chunkLimitsOf(model.capabilities));
    expect(chunks.length).to.equal(4);
    expect([...chunks[0]].length).to.be.above(2900);
  });
});
