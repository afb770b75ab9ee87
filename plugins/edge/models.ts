import type { ModelInfo } from '../../core';
import { EDGE_PROSODY } from './request-body';

export const EDGE_MODEL_NAME = 'edge-tts';

/** The only output format the service still serves to every client (it filters the rest). */
export const EDGE_OUTPUT_FORMAT = 'audio-24khz-48kbitrate-mono-mp3';

/** The service refuses a turn whose escaped text passes 4,096 bytes (edge-tts splits there too). */
const ESCAPED_TEXT_LIMIT_BYTES = 4096;

export const EDGE_MODEL: ModelInfo = {
  name: EDGE_MODEL_NAME,
  description: 'Microsoft Edge read-aloud neural voices (no key; unofficial service)',
  capabilities: {
    formats: ['mp3'],
    speed: EDGE_PROSODY.speed.range,
    pitch: EDGE_PROSODY.pitch.range,
    // One turn is cut at 10 minutes of audio: 1,500 characters stay under it even for dense
    // scripts at 0.5x. The service also refuses SSML text over 4,096 bytes once escaped (2,048 raw
    // bytes of `"` would be 12,288): the gateway splits by the escaped size too.
    maxInputChars: 1500,
    maxInputBytes: 2048,
    maxEscapedInput: { max: ESCAPED_TEXT_LIMIT_BYTES, unit: 'bytes' },
  },
};
