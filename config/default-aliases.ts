/**
 * With no `aliases` in the config, OpenAI's model names serve the embedded engine and OpenAI's
 * voice names map to distinct English eSpeak NG voices, so an unchanged OpenAI app speaks out of
 * the box. A configured model of the same name (the `openai` plugin) always wins over an alias.
 */
const OPENAI_VOICES_ON_ESPEAK: Readonly<Record<string, string>> = {
  alloy: 'en-us',
  ash: 'en-us+m3',
  ballad: 'en-gb+m2',
  coral: 'en-us+f2',
  echo: 'en-gb+m1',
  fable: 'en-gb',
  onyx: 'en-us+m7',
  nova: 'en-us+f4',
  sage: 'en-gb+f3',
  shimmer: 'en-us+f5',
  verse: 'en-us+m4',
  marin: 'en-gb+f1',
  cedar: 'en-gb+m6',
};

export const DEFAULT_ALIASES = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'].map((model) => ({
  model,
  target: 'espeak-ng',
  voices: OPENAI_VOICES_ON_ESPEAK,
}));
