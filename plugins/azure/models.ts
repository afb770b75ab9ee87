import type { ModelInfo } from '../../core';
import { AZURE_FORMATS } from './output-formats';
import { AZURE_PROSODY } from './request-body';

export const AZURE_MODEL_NAME = 'azure-tts';

/**
 * Azure caps one request at 10 minutes of audio and cuts the rest off silently. Dense scripts
 * speak about 300 characters a minute (zh-CN voices list ~290 "words" per minute); at the
 * slowest native rate (0.5x) 1,500 characters stay under 10 minutes. Billing is per character,
 * so smaller chunks cost nothing extra.
 */
export const AZURE_MAX_INPUT_CHARS = 1500;

export const AZURE_MODEL: ModelInfo = {
  name: AZURE_MODEL_NAME,
  description: 'Azure AI Speech neural voices (SSML over REST)',
  capabilities: {
    formats: AZURE_FORMATS,
    speed: AZURE_PROSODY.speed.range,
    pitch: AZURE_PROSODY.pitch.range,
    maxInputChars: AZURE_MAX_INPUT_CHARS,
  },
};
