import { expect } from 'chai';
import { secMsGec } from '../../../plugins/edge';
import { edgeTimestamp, parseBinaryFrame, parseTextFrame } from '../../../plugins/edge/protocol';
import { serviceVoiceName } from '../../../plugins/edge/voices';

describe('edge plugin: protocol pieces', () => {
  it('computes Sec-MS-GEC like the browser (vector computed independently with Python hashlib)', () => {
    expect(secMsGec('6A5AA1D4EAFF4E9FB37E23D68491D6F4', 1763700123456)).to.equal('A8E7F7219FFFCBC67BD00D8216FB77A18F7668DF47F9E4F538808FBD02D2E3E8');
    // the token changes only every five minutes
    expect(secMsGec('6A5AA1D4EAFF4E9FB37E23D68491D6F4', 1763700299999)).to.equal(secMsGec('6A5AA1D4EAFF4E9FB37E23D68491D6F4', 1763700000000));
    expect(secMsGec('6A5AA1D4EAFF4E9FB37E23D68491D6F4', 1763700300000)).to.not.equal(secMsGec('6A5AA1D4EAFF4E9FB37E23D68491D6F4', 1763700000000));
  });

  it('parses text frames and binary frames with a 2-byte big-endian header length', () => {
    expect(parseTextFrame('X-RequestId:ab\r\nPath:turn.end\r\n\r\n{}')).to.deep.equal({ headers: { 'X-RequestId': 'ab', Path: 'turn.end' }, body: '{}' });
    const headers = Buffer.from('X-RequestId:ab\r\nPath:audio\r\n');
    const frame = Buffer.concat([Buffer.from([0, headers.length]), headers, Buffer.from([0xff, 0xf3, 0x84])]);
    const parsed = parseBinaryFrame(new Uint8Array(frame));
    expect(parsed?.headers).to.deep.equal({ 'X-RequestId': 'ab', Path: 'audio' });
    expect(Buffer.from(parsed?.body ?? []).toString('hex')).to.equal('fff384');
    expect(parseBinaryFrame(new Uint8Array([0, 40, 1, 2]))).to.equal(undefined);
  });

  it("writes the browser's timestamp and long voice names", () => {
    expect(edgeTimestamp(new Date(Date.UTC(2025, 10, 1, 5, 6, 7)))).to.equal('Sat Nov 01 2025 05:06:07 GMT+0000 (Coordinated Universal Time)');
    expect(serviceVoiceName('en-US-AriaNeural')).to.equal('Microsoft Server Speech Text to Speech Voice (en-US, AriaNeural)');
  });
});
