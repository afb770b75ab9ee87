import { expect } from 'chai';
import { splitForStreaming } from '../../../core/synthesis/stream-chunks';
import { splitText } from '../../../core/synthesis/text-splitter';

/** The chunks read one after the other: what the listener hears, spacing aside. */
const spoken = (chunks: readonly string[]) => chunks.join(' ');
const words = (text: string) => text.trim().split(/\s+/);

describe('core/synthesis text splitting keeps numbers, times and words whole', () => {
  // 89 characters: one sentence, longer than a stream's first chunk (60).
  const sentence = 'The company earned 1,500,000 dollars in revenue during the last fiscal year, at 10:30 a.m.';

  it('streaming: a sentence longer than the first chunk keeps "1,500,000" and "10:30" as written', () => {
    const chunks = splitForStreaming(sentence, { maxChars: 2000 });
    expect(words(spoken(chunks))).to.deep.equal(words(sentence));
  });

  it('whole files: a clause split happens only at clause punctuation followed by a space', () => {
    const chunks = splitText(sentence, { maxChars: 40 });
    for (const chunk of chunks) expect([...chunk].length).to.be.at.most(40);
    expect(words(spoken(chunks))).to.deep.equal(words(sentence));
  });

  it('streaming: text without spaces (Chinese) gets no spaces added between its clauses', () => {
    const chinese = '我们今天去公园散步，天气非常好，阳光明媚，微风轻拂，孩子们在草地上奔跑嬉戏，老人们坐在长椅上聊天，一切都显得那么美好和谐。';
    expect(splitForStreaming(chinese, { maxChars: 2000 }).join('')).to.equal(chinese);
  });
});
