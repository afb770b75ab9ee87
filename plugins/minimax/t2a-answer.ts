import { badUpstreamResponse, type AudioFormat } from '../../core';
import { PROVIDER, type BaseResponse } from './errors';

/** A `POST /v1/t2a_v2` answer, or one event of a streamed answer (the same shape). */
export interface T2aAnswer {
  readonly data?: { readonly audio?: unknown; readonly status?: unknown } | null;
  readonly extra_info?: { readonly audio_sample_rate?: unknown; readonly audio_format?: unknown } | null;
  readonly trace_id?: string;
  readonly base_resp?: BaseResponse;
}

/** `data.status` of the answer (or event) that ends a synthesis: "1: synthesizing, 2: finished". */
export const SYNTHESIS_FINISHED = 2;

/** The format MiniMax reports (in `extra_info`, when it reports one) must be the one asked for. */
export function checkReportedFormat(answer: T2aAnswer, asked: AudioFormat): void {
  const reported = answer.extra_info?.audio_format;
  if (typeof reported === 'string' && reported !== asked) throw badUpstreamResponse(PROVIDER, `asked for ${asked}, got ${reported}`);
}

/** The sample rate MiniMax reports, else the one asked for. */
export function reportedSampleRate(answer: T2aAnswer, asked: number): number {
  const reported = answer.extra_info?.audio_sample_rate;
  return typeof reported === 'number' && reported > 0 ? reported : asked;
}
