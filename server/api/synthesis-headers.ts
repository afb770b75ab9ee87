import type { HeaderDescription } from './route-description';

/** Headers of every synthesis answer (server/streaming/send-stream.ts sets them). */
export const SYNTHESIS_HEADERS: Readonly<Record<string, HeaderDescription>> = {
  'X-TTS-Applied': {
    description: 'Who applied each setting: `speed=<default|native|dsp>; pitch=…; volume=…; format=<native|transcoded>; chunks=<n>`',
    schema: { type: 'string' },
  },
};

/** Headers of synthesis answers that depend on the request and the configuration. */
export const SYNTHESIS_OPTIONAL_HEADERS: Readonly<Record<string, HeaderDescription>> = {
  'X-TTS-Cache': { description: 'Whether the result cache answered: `hit` or `miss` (absent when the request opted out with `Cache-Control: no-store`)', schema: { enum: ['hit', 'miss'] } },
  'X-TTS-Served-By': { description: 'The model and voice that made the audio (`<model>/<voice>`): the target a route or alias chose', schema: { type: 'string' } },
};

/** /v1 only: `instructions` given to a model that takes none. */
export const INSTRUCTIONS_HEADER: Readonly<Record<string, HeaderDescription>> = {
  'X-TTS-Instructions': { description: '`ignored; the model takes no instructions`', schema: { type: 'string' } },
};
