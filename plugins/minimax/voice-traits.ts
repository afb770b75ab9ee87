import type { VoiceGender } from '../../core';

/** The language word MiniMax puts before `_` in system voice ids, as a BCP 47 tag. */
const LANGUAGE_PREFIXES: Readonly<Record<string, string>> = {
  English: 'en',
  'Chinese (Mandarin)': 'zh-CN',
  Cantonese: 'yue-HK',
  Japanese: 'ja',
  Korean: 'ko',
  Spanish: 'es',
  Portuguese: 'pt',
  French: 'fr',
  German: 'de',
  Italian: 'it',
  Russian: 'ru',
  Arabic: 'ar',
  Turkish: 'tr',
  Ukrainian: 'uk',
  Dutch: 'nl',
  Vietnamese: 'vi',
  Indonesian: 'id',
  Thai: 'th',
  Polish: 'pl',
  Romanian: 'ro',
  Greek: 'el',
  Czech: 'cs',
  Finnish: 'fi',
  Hindi: 'hi',
  Bulgarian: 'bg',
  Danish: 'da',
  Hebrew: 'he',
  Malay: 'ms',
  Persian: 'fa',
  Slovak: 'sk',
  Swedish: 'sv',
  Croatian: 'hr',
  Filipino: 'fil',
  Hungarian: 'hu',
  Norwegian: 'no',
  Slovenian: 'sl',
  Catalan: 'ca',
  Tamil: 'ta',
  Afrikaans: 'af',
};

/** BCP 47 for "undetermined": said when nothing in the voice names its language. */
export const UNDETERMINED_LANGUAGE = 'und';

const CJK = /[\u4e00-\u9fff]/;

/**
 * A voice's language from what MiniMax really says: the language prefix of a system voice id
 * (`English_Graceful_Lady`, `Chinese (Mandarin)_News_Anchor`), else a display name written in
 * Chinese script (the older `male-qn-qingse` family, named `青涩青年音`), else `und`.
 */
export function languageOf(voiceId: string, voiceName: string): string {
  const separator = voiceId.indexOf('_');
  const prefix = separator > 0 ? voiceId.slice(0, separator) : '';
  const tag = LANGUAGE_PREFIXES[prefix];
  if (tag) return tag;
  return CJK.test(voiceName) ? 'zh-CN' : UNDETERMINED_LANGUAGE;
}

const MALE_WORDS = new Set(['male', 'man', 'men', 'boy', 'gentleman', 'guy', 'husband', 'father', 'grandpa', 'king', 'prince', 'lad']);
const FEMALE_WORDS = new Set(['female', 'woman', 'women', 'lady', 'girl', 'wife', 'mother', 'grandma', 'queen', 'princess', 'sister']);

/** Words of an id or name: `English_ManWithDeepVoice` -> english, man, with, deep, voice. */
function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z]+/)
    .map((word) => word.toLowerCase())
    .filter((word) => word.length > 0);
}

/**
 * A gender only where the id or name states one (`Graceful_Lady`, `male-qn-qingse`, `少女音`);
 * MiniMax's list has no gender field, so anything else is `Unknown` rather than a guess.
 */
export function genderOf(voiceId: string, voiceName: string): VoiceGender {
  const all = [...words(voiceId), ...words(voiceName)];
  const male = all.some((word) => MALE_WORDS.has(word)) || voiceName.includes('男');
  const female = all.some((word) => FEMALE_WORDS.has(word)) || voiceName.includes('女');
  if (male === female) return 'Unknown';
  return male ? 'Male' : 'Female';
}
