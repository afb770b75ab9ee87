/**
 * ElevenLabs labels voices with a free-text accent (`american`, `british`) and, on newer voices,
 * a language code and verified locales. This turns them into one BCP 47 tag.
 */
const ENGLISH_ACCENT_REGIONS: Readonly<Record<string, string>> = {
  american: 'US',
  'us southern': 'US',
  british: 'GB',
  english: 'GB',
  scottish: 'GB',
  australian: 'AU',
  irish: 'IE',
  indian: 'IN',
  canadian: 'CA',
  'new zealand': 'NZ',
  'south african': 'ZA',
  nigerian: 'NG',
};

const BCP47 = /^[a-zA-Z]{2,3}(-[a-zA-Z]{4})?(-([a-zA-Z]{2}|[0-9]{3}))?$/;

export interface LanguageHints {
  readonly verifiedLocales: readonly string[];
  readonly languageLabel?: string;
  readonly accentLabel?: string;
}

/** Verified locale first, then label language (+ an English accent's region), else `en`. */
export function voiceLanguage(hints: LanguageHints): string {
  const locale = hints.verifiedLocales.find((candidate) => BCP47.test(candidate));
  if (locale) return locale;
  const language = hints.languageLabel && /^[a-zA-Z]{2,3}$/.test(hints.languageLabel) ? hints.languageLabel.toLowerCase() : undefined;
  const region = ENGLISH_ACCENT_REGIONS[(hints.accentLabel ?? '').trim().toLowerCase()];
  if ((language === undefined || language === 'en') && region) return `en-${region}`;
  // ElevenLabs' original premade voices carry no language label and are English.
  return language ?? 'en';
}
