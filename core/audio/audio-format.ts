/** The containers/codecs the gateway can hand back to a client. */
export const AUDIO_FORMATS = ['mp3', 'wav', 'opus', 'flac', 'pcm', 'aac'] as const;

export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** Content-Type per format. `pcm` is raw 16-bit little-endian mono (not `audio/L16`, which names big-endian samples, RFC 2586); its rate travels in a parameter. */
export const CONTENT_TYPES: Readonly<Record<AudioFormat, string>> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  opus: 'audio/ogg; codecs=opus',
  flac: 'audio/flac',
  pcm: 'audio/pcm',
  aac: 'audio/aac',
};

export function isAudioFormat(value: string): value is AudioFormat {
  return (AUDIO_FORMATS as readonly string[]).includes(value);
}
