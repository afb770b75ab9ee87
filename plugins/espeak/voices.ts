/** The engine's fixed voice list, mapped to the gateway's VoiceInfo and indexed by voiceId. */
import type { VoiceGender, VoiceInfo } from '../../core';
import { toLanguageTag } from './language-tag';
import type { EngineVoice } from './worker-messages';

/** eSpeak's gender codes (espeak_VOICE.gender). */
const GENDERS: Readonly<Record<number, VoiceGender>> = { 1: 'Male', 2: 'Female' };

/** Voices that are also offered with each variant. */
const VARIANT_BASES: readonly string[] = ['en-us', 'en-gb'];
/** eSpeak NG's numbered variants: m1..m7 male, f1..f5 female. */
const VARIANTS: readonly (readonly [string, VoiceGender])[] = [
  ...[1, 2, 3, 4, 5, 6, 7].map((number) => [`m${number}`, 'Male'] as const),
  ...[1, 2, 3, 4, 5].map((number) => [`f${number}`, 'Female'] as const),
];

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
    voices.push(...this.variantsOf(voices));
    this.voices = voices;
  }

  /**
   * eSpeak's voice variants (`en-us+f3`) of the main English voices, so that a handful of
   * clearly different English voices exist (OpenAI's voice names map to them by default).
   */
  private variantsOf(baseVoices: readonly VoiceInfo[]): VoiceInfo[] {
    const variants: VoiceInfo[] = [];
    for (const base of baseVoices.filter((voice) => VARIANT_BASES.includes(voice.voiceId))) {
      const baseIdentifier = this.identifiers.get(base.voiceId) as string;
      for (const [variant, gender] of VARIANTS) {
        const voiceId = `${base.voiceId}+${variant}`;
        this.identifiers.set(voiceId, `${baseIdentifier}+${variant}`);
        variants.push({ ...base, voiceId, voiceName: `${base.voiceName}, variant ${variant}`, gender, description: `${base.description}, variant ${variant}` });
      }
    }
    return variants;
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
