import { expect } from 'chai';
import { buildProsodySsml, escapeXml, signedSsmlValue } from '../../../core';

describe('core ssml helpers', () => {
  it('escapes the five XML markup characters', () => {
    expect(escapeXml(`Tom & "Jerry" <b>'s</b>`)).to.equal('Tom &amp; &quot;Jerry&quot; &lt;b&gt;&apos;s&lt;/b&gt;');
  });

  it('replaces characters XML 1.0 cannot carry with spaces and keeps the rest', () => {
    expect(escapeXml('a\u000Bb\u0000c\tline\nnext\r')).to.equal('a b c\tline\nnext\r');
    expect(escapeXml('lone \uD800 surrogate, pair \uD83D\uDE00 kept')).to.equal('lone   surrogate, pair \uD83D\uDE00 kept');
  });

  it('builds a speak/voice/prosody document with escaped text and attributes', () => {
    const ssml = buildProsodySsml({ lang: 'en-US', voice: "O'Brien", text: '1 < 2', rate: '+50%', pitch: '-2st', volume: '-10%' });
    expect(ssml).to.equal(
      "<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xml:lang='en-US'>" +
        "<voice name='O&apos;Brien'><prosody rate='+50%' pitch='-2st' volume='-10%'>1 &lt; 2</prosody></voice></speak>",
    );
  });

  it('leaves the prosody element out when no attribute is given', () => {
    expect(buildProsodySsml({ lang: 'de-DE', voice: 'de-DE-KatjaNeural', text: 'Hallo' })).to.equal(
      "<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xml:lang='de-DE'><voice name='de-DE-KatjaNeural'>Hallo</voice></speak>",
    );
  });

  it('formats signed relative values with at most two decimals', () => {
    expect(signedSsmlValue(50, '%')).to.equal('+50%');
    expect(signedSsmlValue(0, '%')).to.equal('+0%');
    expect(signedSsmlValue(12 * Math.log2(1.5), 'st')).to.equal('+7.02st');
    expect(signedSsmlValue(-12, 'st')).to.equal('-12st');
    expect(signedSsmlValue(-0.001, 'dB')).to.equal('+0dB');
  });
});
