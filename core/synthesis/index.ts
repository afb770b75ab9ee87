export { SynthesisService, type SynthesisServiceOptions, type SynthesisContext, type SynthesisResult, type SynthesisStream, type CacheStatus } from './synthesis-service';
export type { StreamProgress } from './audio-pieces';
export { splitForStreaming } from './stream-chunks';
export { planSynthesis, appliedOf, appliedAfterCheck, type AppliedPlan, type SynthesisPlan, type Adjustment, type AppliedBy, type PlanOptions } from './synthesis-plan';
export { splitText, type ChunkLimits } from './text-splitter';
export { MULTIPLIER_RANGE, MAX_TEXT_CODE_POINTS, type SynthesisRequest } from './synthesis-request';
export type { AudioChunk, AudioEngine, AudioSink, AudioStreamSession, AudioStreamSpec, EncodedPiece, ModelDirectory, ModelRoutes, ProcessingReservation, RouteTarget, SaveControl, WorkControl } from './ports';
export { checkedProviderAudio } from './checked-audio';
export { audioDurationSeconds } from './audio-duration';
