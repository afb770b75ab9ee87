import { gatewayError, type GatewayError } from '../../errors';
import type { AudioFormat } from '../audio-format';
import type { CodecOptions } from '../codec-options';
import { aacAvailable } from '../ffmpeg/ffmpeg-probe';

/** Formats made in-process (WebAssembly and JavaScript encoders), whatever the host has. */
const BUILT_IN: readonly AudioFormat[] = ['wav', 'pcm', 'mp3', 'opus', 'flac'];

/** Formats this engine can produce here: the built-in ones, and aac when ffmpeg runs. */
export function encodableFormats(options?: CodecOptions): readonly AudioFormat[] {
  return aacAvailable(options) ? [...BUILT_IN, 'aac'] : BUILT_IN;
}

export function isEncodableFormat(format: AudioFormat, options?: CodecOptions): boolean {
  return encodableFormats(options).includes(format);
}

/** The error for an output format this engine cannot make (here). */
export function unsupportedOutput(format: AudioFormat, options?: CodecOptions): GatewayError {
  const reason = format === 'aac' ? 'it needs ffmpeg (install ffmpeg or set audio.ffmpegPath)' : undefined;
  return gatewayError('TTS_ERR_UNSUPPORTED_FORMAT', { subject: 'The gateway', format, reason }, {
    details: [{ field: 'format', reason: `supported: ${encodableFormats(options).join(', ')}` }],
  });
}
