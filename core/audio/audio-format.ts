/** The containers/codecs the gateway can hand back to a client. */
export const AUDIO_FORMATS = ['mp3', 'wav', 'opus', 'flac', 'pcm', 'aac'] as const;

export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** Content-Type per format. `pcm` is raw 16-bit little-endian mono; its rate travels in a header. */
export const CONTENT_TYPES: Readonly<Record<AudioFormat, string>> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  opus: 'audio/ogg; codecs=opus',
  flac: 'audio/flac',
  pcm: 'audio/L16',
  aac: 'audio/aac',
};

export function isAudioFormat(value: string): value is AudioFormat {
  return (AUDIO_FORMATS as readonly string[]).includes(value);
}
