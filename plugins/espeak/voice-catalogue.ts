/** The engine's fixed voice list, mapped to the gateway's VoiceInfo and indexed by voiceId. */
import type { VoiceGender, VoiceInfo } from '../../core';
import { toLanguageTag } from './language-tag';
import type { EngineVoice } from './worker-messages';

/** eSpeak's gender codes (espeak_VOICE.gender). */
const GENDERS: Readonly<Record<number, VoiceGender>> = { 1: 'Male', 2: 'Female' };

export class VoiceCatalogue {
  private readonly identifiers = new Map<string, string>();
  readonly voices: readonly VoiceInfo[];

  constructor(engineVoices: readonly EngineVoice[]) {
    const voices: VoiceInfo[] = [];
    for (const engineVoice of engineVoices) {
      const voiceId = this.uniqueVoiceId(engineVoice);
      this.identifiers.set(voiceId, engineVoice.identifier);
      const language = toLanguageTag(voiceId);
      voices.push({
        voiceId,
        voiceName: engineVoice.name,
        language,
        gender: GENDERS[engineVoice.gender] ?? 'Unknown',
        description: `eSpeak NG formant voice: ${engineVoice.name} (${language})`,
      });
    }
    this.voices = voices;
  }

  /** The engine's voice file identifier for a voiceId (case-insensitive), or undefined. */
  identifierOf(voiceId: string): string | undefined {
    return this.identifiers.get(voiceId.toLowerCase());
  }

  /**
   * The voice's language name as users know it from the espeak-ng CLI (`en-us`, `en-gb-x-rp`),
   * lengthened by the file name where that says more (`yue` -> `yue-latn-jyutping`), and made
   * unique by the file identifier as a last resort.
   */
  private uniqueVoiceId(voice: EngineVoice): string {
    const fileName = (voice.identifier.split('/').pop() ?? voice.identifier).toLowerCase();
    const language = (voice.languages[0] ?? fileName).toLowerCase();
    const preferred = fileName.startsWith(`${language}-`) ? fileName : language;
    for (const candidate of [preferred, fileName, voice.identifier.toLowerCase()]) {
      if (!this.identifiers.has(candidate)) return candidate;
    }
    throw new Error(`eSpeak NG lists the voice ${voice.identifier} twice`);
  }
}
