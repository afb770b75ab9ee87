import type { HeaderDescription } from './route-description';

/** Headers of every synthesis answer (server/streaming/send-stream.ts sets them). */
export const SYNTHESIS_HEADERS: Readonly<Record<string, HeaderDescription>> = {
  'X-TTS-Applied': {
    description: 'Who applied each setting: `speed=<default|native|dsp>; pitch=…; volume=…; format=<native|transcoded>; chunks=<n>`',
    schema: { type: 'string' },
  },
};
