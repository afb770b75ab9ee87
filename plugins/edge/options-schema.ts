import type { OptionsSchema } from '../../core';

/** Options of one Edge read-aloud instance, after ajv has applied the defaults. */
export interface EdgeOptions {
  /** The synthesis WebSocket endpoint (point it at a stand-in in tests). */
  readonly baseUrl: string;
  /** The voice list endpoint. */
  readonly voicesUrl: string;
  /** Deadline of one synthesis turn or voice list call, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * The Edge browser version the client presents (`Sec-MS-GEC-Version: 1-{version}` and the
   * User-Agent). Microsoft refuses clients it considers outdated: raise it without a release.
   */
  readonly clientVersion: string;
  /** The public token every Edge browser sends; an option so a change needs no release. */
  readonly trustedClientToken: string;
}

export const EDGE_READ_ALOUD_ROOT = 'speech.platform.bing.com/consumer/speech/synthesize/readaloud';

export const edgeOptionsSchema: OptionsSchema<EdgeOptions> = {
  type: 'object',
  additionalProperties: false,
  // Every option has a default.
  required: [],
  properties: {
    baseUrl: { type: 'string', pattern: '^wss?://', default: `wss://${EDGE_READ_ALOUD_ROOT}/edge/v1` },
    voicesUrl: { type: 'string', pattern: '^https?://', default: `https://${EDGE_READ_ALOUD_ROOT}/voices/list` },
    timeoutMs: { type: 'integer', minimum: 1, default: 30000 },
    clientVersion: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+){3}$', default: '143.0.3650.96' },
    trustedClientToken: { type: 'string', pattern: '^[0-9A-F]{32}$', default: '6A5AA1D4EAFF4E9FB37E23D68491D6F4' },
  },
};
