/** The parts of a Google voice name `<locale>-<Family>-<Variant>`, e.g. `cmn-CN-Chirp3-HD-Kore`. */
export interface GoogleVoiceName {
  readonly locale: string;
  readonly family: string;
  readonly variant: string;
}

const VOICE_NAME = /^([a-z]{2,3}-[A-Z]{2})-(.+)-([A-Za-z0-9]+)$/;

/** Splits a voice name; undefined for names outside the pattern (they belong to no model). */
export function parseVoiceName(name: string): GoogleVoiceName | undefined {
  const match = VOICE_NAME.exec(name);
  return match ? { locale: match[1], family: match[2], variant: match[3] } : undefined;
}
