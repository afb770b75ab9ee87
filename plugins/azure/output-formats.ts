import type { AudioFormat } from '../../core';

/** An `X-Microsoft-OutputFormat` value and what the bytes it returns are. */
export interface AzureOutputFormat {
  readonly header: string;
  /** Sample rate, given for raw PCM (the contract needs it there). */
  readonly sampleRate: number;
}

/**
 * The gateway's formats in Azure's names, all at 24 kHz (every prebuilt neural voice has a
 * 24 kHz model, so nothing is resampled upstream). `riff-*` is a WAV file, `raw-*` headerless
 * 16-bit little-endian PCM, `ogg-*-opus` Opus in an Ogg container.
 */
export const AZURE_OUTPUT_FORMATS: Readonly<Partial<Record<AudioFormat, AzureOutputFormat>>> = {
  mp3: { header: 'audio-24khz-48kbitrate-mono-mp3', sampleRate: 24000 },
  wav: { header: 'riff-24khz-16bit-mono-pcm', sampleRate: 24000 },
  pcm: { header: 'raw-24khz-16bit-mono-pcm', sampleRate: 24000 },
  opus: { header: 'ogg-24khz-16bit-mono-opus', sampleRate: 24000 },
};

export const AZURE_FORMATS = Object.keys(AZURE_OUTPUT_FORMATS) as AudioFormat[];
