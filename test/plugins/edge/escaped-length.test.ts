import { expect } from 'chai';
import { chunkLimitsOf, splitText } from '../../../core';
import { EDGE_MODEL } from '../../../plugins/edge/models';
import { edgeSsml } from '../../../plugins/edge/request-body';

/** The byte limit the maintained reference client (edge-tts) puts on one turn's escaped text. */
const ESCAPED_TEXT_LIMIT = 4096;

/** The text of one turn's SSML as sent: escaped, without the markup. */
const escapedText = (ssml: string) => ssml.replace(/<[^>]*>/g, '');

describe('edge plugin: text length after XML escaping', () => {
  for (const [label, character] of [['ampersands', '&'], ['quotes', '"'], ['less-than signs', '<']] as const) {
    it(`keeps every turn of a text of ${label} within 4,096 bytes once escaped`, () => {
      const chunks = splitText(`${character.repeat(5000)}.`, chunkLimitsOf(EDGE_MODEL.capabilities));
      for (const text of chunks) {
        const ssml = edgeSsml({ voice: 'en-US-AriaNeural', text, speed: 1.5 }, 'Female');
        expect(Buffer.byteLength(escapedText(ssml), 'utf8')).to.be.at.most(ESCAPED_TEXT_LIMIT);
      }
    });
  }

  it('still sends plain text (nothing to escape) in turns of up to 1,500 characters', () => {
    const chunks = splitText('The quick brown fox jumps over the lazy dog. '.repeat(100), chunkLimitsOf(EDGE_MODEL.capabilities));
    expect(chunks.length).to.equal(4);
    expect(chunks[0].length).to.be.above(1400);
  });
});
