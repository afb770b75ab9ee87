/** Turns eSpeak NG language names into well-formed BCP 47 tags. */

/**
 * eSpeak names that are ill-formed in BCP 47 (`en-us-nyc`, `piqd`), put subtags out of order
 * (`chr-US-Qaaa-x-west`) or use dialect codes that would read as regions (`ca-ba` is not
 * Catalan in Bosnia). Private-use subtags keep the dialect without claiming a meaning.
 */
const LANGUAGE_OVERRIDES: Readonly<Record<string, string>> = {
  'chr-us-qaaa-x-west': 'chr-US-x-west',
  'en-us-nyc': 'en-US-x-nyc',
  'ca-ba': 'ca-x-balear',
  'ca-nw': 'ca-x-nw',
  'ca-va': 'ca-valencia',
  'ru-cl': 'ru-x-classic',
  piqd: 'tlh-Piqd',
  py: 'art-x-pyash',
  xex: 'art-x-xextan',
};

/**
 * Canonical BCP 47 tag of an eSpeak language name: case fixed (`en-gb-x-rp` -> `en-GB-x-rp`),
 * macrolanguage preferred where CLDR says so (`cmn` -> `zh`). Falls back to the primary subtag.
 */
export function toLanguageTag(espeakLanguage: string): string {
  const name = espeakLanguage.toLowerCase();
  const candidate = LANGUAGE_OVERRIDES[name] ?? name;
  try {
    return Intl.getCanonicalLocales(candidate)[0];
  } catch {
    const primary = name.split('-')[0];
    return /^[a-z]{2,3}$/.test(primary) ? primary : 'und';
  }
}
