import type { AudioFormat, ModelCapabilities, ModelInfo } from '../../core';

/** `output_format.container` mp3, wav (pcm_s16le) and raw (pcm_s16le). */
export const CARTESIA_FORMATS: readonly AudioFormat[] = ['mp3', 'wav', 'pcm'];

/**
 * Cartesia documents no transcript limit for `/tts/bytes`; 5,000 characters keeps one call's
 * audio to a few minutes, and the gateway splits longer text at sentence boundaries.
 */
const MAX_INPUT_CHARS = 5000;

/**
 * sonic-3 takes `generation_config.speed` 0.6..1.5 ("roughly a multiplier on the default"), so
 * speed is native there. `generation_config.volume` (0.5..2.0) is declared nowhere: Cartesia calls
 * it guidance, not an amplitude factor, and the gateway's gain is exact. Earlier models only know
 * `slow|normal|fast`, which is not a multiplier: the gateway's DSP does their speed.
 */
const sonic3: ModelCapabilities = { formats: CARTESIA_FORMATS, speed: { min: 0.6, max: 1.5 }, maxInputChars: MAX_INPUT_CHARS };
const plain: ModelCapabilities = { formats: CARTESIA_FORMATS, maxInputChars: MAX_INPUT_CHARS };

export const CARTESIA_MODELS: readonly ModelInfo[] = [
  { name: 'sonic-3', description: 'Cartesia Sonic 3 (speed control)', capabilities: sonic3 },
  { name: 'sonic-3.5', description: 'Cartesia Sonic 3.5 (speed and volume controls currently disabled by Cartesia)', capabilities: plain },
  { name: 'sonic-2', description: 'Cartesia Sonic 2', capabilities: plain },
  { name: 'sonic-turbo', description: 'Cartesia Sonic Turbo (lowest latency)', capabilities: plain },
];

export function findCartesiaModel(name: string): ModelInfo | undefined {
  return CARTESIA_MODELS.find((model) => model.name === name);
}
