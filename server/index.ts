export { createApp } from './app';
export type {
  AppDependencies,
  ListModelsFunction,
  ListVoicesFunction,
  SynthesisContext,
  SynthesisResult,
  SynthesisRequest,
  SynthesizeFunction,
} from './app-dependencies';
export { errorEnvelope, sendSuccess, successEnvelope, type ErrorEnvelope, type SuccessEnvelope } from './envelope';
