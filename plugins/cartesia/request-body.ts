import type { AudioFormat, ProviderSynthesisRequest } from '../../core';

type OutputFormat =
  | { readonly container: 'mp3'; readonly sample_rate: number; readonly bit_rate: number }
  | { readonly container: 'wav' | 'raw'; readonly encoding: 'pcm_s16le'; readonly sample_rate: number };

/** The JSON body of `POST /tts/bytes`. */
export interface TtsBody {
  readonly model_id: string;
  readonly transcript: string;
  readonly voice: { readonly mode: 'id'; readonly id: string };
  readonly output_format: OutputFormat;
  readonly language?: string;
  readonly generation_config?: { readonly speed: number };
}

const MP3_BIT_RATE = 128000;

function outputFormat(format: AudioFormat, sampleRate: number): OutputFormat {
  if (format === 'mp3') return { container: 'mp3', sample_rate: sampleRate, bit_rate: MP3_BIT_RATE };
  return { container: format === 'wav' ? 'wav' : 'raw', encoding: 'pcm_s16le', sample_rate: sampleRate };
}

/**
 * Maps a planned request to Cartesia's fields: `generation_config.speed = s` (the planner sends a
 * speed only to models declaring it, inside 0.6..1.5); pitch and volume are the gateway's.
 */
export function buildTtsBody(request: ProviderSynthesisRequest, sampleRate: number, language?: string): TtsBody {
  return {
    model_id: request.model,
    transcript: request.text,
    voice: { mode: 'id', id: request.voice },
    output_format: outputFormat(request.format, sampleRate),
    ...(language ? { language } : {}),
    ...(request.speed !== undefined ? { generation_config: { speed: request.speed } } : {}),
  };
}
