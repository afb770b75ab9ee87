import { expect } from 'chai';
import { sniffAudioFormat } from '../../../core/audio/sniff-audio-format';
import { encodeAudio } from '../../../core/audio/encode/encode-audio';
import { speechMp3Bytes, speechPcm, speechWavBytes } from './speech-fixture';

describe('sniffAudioFormat', () => {
  it('recognises RIFF/WAVE', () => {
    expect(sniffAudioFormat(speechWavBytes())).to.equal('wav');
  });

  it('recognises MP3 behind an ID3v2 tag and as a bare frame', () => {
    const mp3 = speechMp3Bytes();
    expect(sniffAudioFormat(mp3)).to.equal('mp3');
    const tagLength = 10 + ((mp3[6] << 21) | (mp3[7] << 14) | (mp3[8] << 7) | mp3[9]);
    expect(sniffAudioFormat(mp3.subarray(tagLength))).to.equal('mp3');
  });

  it('recognises FLAC, Ogg Opus and ADTS AAC from their headers', () => {
    expect(sniffAudioFormat(new TextEncoder().encode('fLaC\0\0\0\x22'))).to.equal('flac');
    const oggPage = new Uint8Array(27 + 1 + 19);
    oggPage.set(new TextEncoder().encode('OggS'));
    oggPage[26] = 1;
    oggPage[27] = 19;
    oggPage.set(new TextEncoder().encode('OpusHead'), 28);
    expect(sniffAudioFormat(oggPage)).to.equal('opus');
    // ADTS: sync 0xFFF, MPEG-4, layer 0, no CRC; AAC LC at 24 kHz (index 6), mono.
    expect(sniffAudioFormat(Uint8Array.from([0xff, 0xf1, 0x58, 0x40, 0x1f, 0xfc, 0x00]))).to.equal('aac');
  });

  it('tells ADTS AAC from MP3 frames, whose sync looks alike', async () => {
    const aac = (await encodeAudio(speechPcm(), 'aac')).audio;
    expect(sniffAudioFormat(aac)).to.equal('aac');
    // The same sync bits with layer III are MP3, never AAC.
    const mp3 = speechMp3Bytes();
    const tagLength = 10 + ((mp3[6] << 21) | (mp3[7] << 14) | (mp3[8] << 7) | mp3[9]);
    expect(sniffAudioFormat(mp3.subarray(tagLength))).to.equal('mp3');
    // An ADTS-looking header whose frame is shorter than its own header, or not followed by another frame.
    expect(sniffAudioFormat(Uint8Array.from([0xff, 0xf1, 0x58, 0x40, 0x00, 0x1f, 0xfc]))).to.equal(undefined);
    const notFollowed = aac.slice(0, 600);
    const frameLength = ((notFollowed[3] & 0x03) << 11) | (notFollowed[4] << 3) | (notFollowed[5] >> 5);
    notFollowed[frameLength] = 0x00;
    expect(sniffAudioFormat(notFollowed)).to.equal(undefined);
  });

  it('does not call Ogg Vorbis opus, nor junk anything', () => {
    const vorbisPage = new Uint8Array(27 + 1 + 30);
    vorbisPage.set(new TextEncoder().encode('OggS'));
    vorbisPage[26] = 1;
    vorbisPage[27] = 30;
    vorbisPage.set(new TextEncoder().encode('\x01vorbis'), 28);
    expect(sniffAudioFormat(vorbisPage)).to.equal(undefined);
    expect(sniffAudioFormat(new TextEncoder().encode('{"error":"quota exceeded"}'))).to.equal(undefined);
    expect(sniffAudioFormat(new Uint8Array(0))).to.equal(undefined);
    expect(sniffAudioFormat(Uint8Array.from([0xff, 0xff, 0xff, 0xff]))).to.equal(undefined);
  });
});
