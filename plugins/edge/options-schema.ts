import type { OptionsFromSchema, OptionsSchema } from '../../core';

export const EDGE_READ_ALOUD_ROOT = 'speech.platform.bing.com/consumer/speech/synthesize/readaloud';

/** Options of one Edge read-aloud instance; the type below is read off this schema. */
export const edgeOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  // Every option has a default.
  required: [],
  properties: {
    // The synthesis WebSocket endpoint (point it at a stand-in in tests).
    baseUrl: { type: 'string', pattern: '^wss?://', default: `wss://${EDGE_READ_ALOUD_ROOT}/edge/v1` },
    // The voice list endpoint.
    voicesUrl: { type: 'string', pattern: '^https?://', default: `https://${EDGE_READ_ALOUD_ROOT}/voices/list` },
    // Deadline of one synthesis turn or voice list call, in milliseconds.
    timeoutMs: { type: 'integer', minimum: 1, default: 30000 },
    // The Edge browser version the client presents (`Sec-MS-GEC-Version: 1-{version}` and the
    // User-Agent). Microsoft refuses clients it considers outdated: raise it without a release.
    clientVersion: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+){3}$', default: '143.0.3650.96' },
    // The public token every Edge browser sends; an option so a change needs no release.
    trustedClientToken: { type: 'string', pattern: '^[0-9A-F]{32}$', default: '6A5AA1D4EAFF4E9FB37E23D68491D6F4' },
  },
} as const satisfies OptionsSchema;

/** Options of one Edge read-aloud instance, after ajv has applied the defaults. */
export type EdgeOptions = OptionsFromSchema<typeof edgeOptionsSchema>;
