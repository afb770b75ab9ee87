import { expect } from 'chai';
import nock from 'nock';
import { StoredVoiceSettings } from '../../../plugins/elevenlabs/voice-settings';
import type { LoggedWarning } from '../../support/plugin-test-context';
import { createProvider, RACHEL, synthesisRequest } from './harness';

const API = 'https://api.elevenlabs.io';
const SETTINGS_PATH = `/v1/voices/${RACHEL}/settings`;
const SPEECH_PATH = new RegExp(`^/v1/text-to-speech/${RACHEL}\\?`);
// The answer's shape: VoiceSettingsResponseModel of ElevenLabs' API reference (every field nullable).
const STORED = { stability: 0.35, use_speaker_boost: false, similarity_boost: 0.9, style: 0.2, speed: 0.9 };
const MP3 = Buffer.from('494433', 'hex');

describe("elevenlabs plugin: a speed goes with the voice's stored settings", () => {
  afterEach(() => nock.cleanAll());

  it('reads a voice\'s settings once and reuses them for its later requests', async () => {
    const bodies: unknown[] = [];
    const settings = nock(API).get(SETTINGS_PATH).once().reply(200, STORED);
    nock(API)
      .post(SPEECH_PATH, (body) => Boolean(bodies.push(body)))
      .times(2)
      .reply(200, MP3, { 'Content-Type': 'audio/mpeg' });
    const provider = await createProvider();
    await provider.synthesize(synthesisRequest({ speed: 1.1 }));
    await provider.synthesize(synthesisRequest({ speed: 0.8 }));
    expect(settings.isDone()).to.equal(true);
    expect(bodies.map((body) => (body as { voice_settings: unknown }).voice_settings)).to.deep.equal([
      { stability: 0.35, similarity_boost: 0.9, style: 0.2, use_speaker_boost: false, speed: 1.1 },
      { stability: 0.35, similarity_boost: 0.9, style: 0.2, use_speaker_boost: false, speed: 0.8 },
    ]);
  });

  it('asks for no settings and sends no voice_settings when the request has no speed', async () => {
    let sent: Record<string, unknown> | undefined;
    nock(API).post(SPEECH_PATH, (body) => Boolean((sent = body))).reply(200, MP3, { 'Content-Type': 'audio/mpeg' });
    await (await createProvider()).synthesize(synthesisRequest());
    expect(sent).to.deep.equal({ text: 'Hello.', model_id: 'eleven_multilingual_v2' });
  });

  it('sends the speed alone, with a warning, when the settings cannot be read (a key without the voices permission)', async () => {
    let sent: Record<string, unknown> | undefined;
    nock(API)
      .get(SETTINGS_PATH)
      .reply(401, { detail: { status: 'missing_permissions', message: 'The API key you used is missing the permission voices_read to execute this operation.' } });
    nock(API).post(SPEECH_PATH, (body) => Boolean((sent = body))).reply(200, MP3, { 'Content-Type': 'audio/mpeg' });
    const warnings: LoggedWarning[] = [];
    const result = await (await createProvider({}, warnings)).synthesize(synthesisRequest({ speed: 1.1 }));
    expect(result.format).to.equal('mp3');
    expect(sent?.voice_settings).to.deep.equal({ speed: 1.1 });
    expect(warnings.map((warning) => warning.message)).to.deep.equal(['ElevenLabs voice settings unreadable; sending the speed without them']);
  });

  it('keeps a bounded number of voices, dropping the oldest (voice ids come from requests)', async () => {
    const asked: string[] = [];
    const client = { getJson: async <T>(path: string) => (asked.push(path), STORED as T) };
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    const settings = new StoredVoiceSettings(client, quiet, 2);
    const signal = new AbortController().signal;
    for (const voice of ['a', 'b', 'c', 'b', 'a']) await settings.withSpeed(voice, 1.1, signal);
    // 'a' was dropped when 'c' came in; 'b' was still kept.
    expect(asked).to.deep.equal(['/v1/voices/a/settings', '/v1/voices/b/settings', '/v1/voices/c/settings', '/v1/voices/a/settings']);
  });
});
