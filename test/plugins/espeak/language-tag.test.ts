import { expect } from 'chai';
import { toLanguageTag } from '../../../plugins/espeak/language-tag';

describe('espeak plugin: language tags', () => {
  const cases: [string, string][] = [
    ['en-us', 'en-US'],
    ['en-gb', 'en-GB'],
    ['pt-br', 'pt-BR'],
    ['es-419', 'es-419'],
    ['fa-latn', 'fa-Latn'],
    ['cmn', 'zh'],
    ['cmn-latn-pinyin', 'zh-Latn-pinyin'],
    ['yue', 'yue'],
    ['en-gb-x-rp', 'en-GB'],
    ['vi-vn-x-central', 'vi-VN'],
    ['en-us-nyc', 'en-US'],
    ['chr-US-Qaaa-x-west', 'chr-US'],
    ['ca-ba', 'ca'],
    ['piqd', 'tlh-Piqd'],
  ];
  for (const [espeakName, tag] of cases) {
    it(`maps ${espeakName} to ${tag}`, () => expect(toLanguageTag(espeakName)).to.equal(tag));
  }

  it('falls back to the primary language of a name it cannot parse', () => {
    expect(toLanguageTag('de-123456789')).to.equal('de');
  });
});
