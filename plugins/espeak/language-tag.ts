/** Turns eSpeak NG language names into well-formed BCP 47 tags. */

/**
 * eSpeak names that are ill-formed in BCP 47 (`en-us-nyc`, `piqd`), put subtags out of order
 * (`chr-US-Qaaa-x-west`) or use dialect codes that would read as regions (`ca-ba` is not
 * Catalan in Bosnia). The dialect stays visible in the voiceId and voiceName.
 */
const LANGUAGE_OVERRIDES: Readonly<Record<string, string>> = {
  'chr-us-qaaa-x-west': 'chr-US',
  'en-us-nyc': 'en-US',
  'ca-ba': 'ca',
  'ca-nw': 'ca',
  'ca-va': 'ca-valencia',
  'ru-cl': 'ru',
  piqd: 'tlh-Piqd',
  py: 'art',
  xex: 'art',
};

/**
 * Canonical BCP 47 tag of an eSpeak language name: case fixed (`en-gb` -> `en-GB`), the
 * macrolanguage preferred where CLDR says so (`cmn` -> `zh`), and private-use subtags
 * (`en-gb-x-rp`) dropped, since clients match voices by language and region.
 */
export function toLanguageTag(espeakLanguage: string): string {
  const name = espeakLanguage.toLowerCase();
  const candidate = LANGUAGE_OVERRIDES[name] ?? name;
  try {
    return Intl.getCanonicalLocales(candidate)[0].split('-x-')[0];
  } catch {
    const primary = name.split('-')[0];
    return /^[a-z]{2,3}$/.test(primary) ? primary : 'und';
  }
}
