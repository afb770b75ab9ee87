export {
  NO_METRICS,
  UNKNOWN_LABEL,
  type Metrics,
  type SynthesisFinished,
  type SynthesisLabels,
  type SynthesisOutcome,
  type UpstreamCall,
} from './metrics';
export { synthesisOutcomeOf } from './synthesis-outcome';
