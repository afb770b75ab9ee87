export { SynthesisService, type SynthesisServiceOptions, type SynthesisContext, type SynthesisResult } from './synthesis-service';
export { planSynthesis, describePlan, type SynthesisPlan, type Adjustment, type AppliedBy } from './synthesis-plan';
export { splitText, type ChunkLimits } from './text-splitter';
export { MULTIPLIER_RANGE, MAX_TEXT_CODE_POINTS, type SynthesisRequest } from './synthesis-request';
export type { AudioChunk, AudioEngine, AudioSink, ModelDirectory, ServedModel } from './ports';
