import type { SynthesisRequest } from '../../../core';

/** Four chunks at a harness's 30-character limit. */
export const FOUR_CHUNKS = 'First part is here. Second part is here. Third part is here. Fourth part is here.';

/** A request for model `acme`, voice `v1`, of FOUR_CHUNKS in mp3, with `overrides`. */
export const fourChunkRequest = (overrides: Partial<SynthesisRequest> = {}): SynthesisRequest => ({ model: 'acme', voice: 'v1', text: FOUR_CHUNKS, speed: 1, pitch: 1, volume: 1, format: 'mp3', ...overrides });
