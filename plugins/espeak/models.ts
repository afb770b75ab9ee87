/**
 * The one model of the espeak plugin and what it does natively. Native ranges are only those
 * where the mapping in request-body.ts was measured to give the gateway's meaning within
 * 10% on every sampled voice (see README.md); the gateway's DSP does the rest.
 */
import type { ModelInfo } from '../../core';

export const ESPEAK_MODEL_NAME = 'espeak-ng';

export const ESPEAK_MODEL: ModelInfo = {
  name: ESPEAK_MODEL_NAME,
  description: 'eSpeak NG formant synthesis (embedded, WebAssembly): about 140 languages, no key, no network',
  capabilities: {
    formats: ['wav', 'pcm', 'mp3'],
    // Words per minute track 1/duration closely for English and most voices, but some voices'
    // pauses and phoneme lengths scale differently (Hebrew is 17% off at 0.5 and 29% at 2.0).
    speed: { min: 0.75, max: 1.25 },
    // Calibrated base pitch with the intonation range scaled alike: every voice within 10%
    // (Maori is the widest: -7.5% at 0.7, -11.5% at 0.6, +8.6% at 1.75).
    pitch: { min: 0.7, max: 1.75 },
    // An exact gain on the samples, but many voices already peak near full scale at 1.0:
    // only attenuation is native; the gateway amplifies with its limiter.
    volume: { min: 0.5, max: 1 },
    // A chunk this long is about two minutes of speech and a fraction of a second of one
    // worker; longer text is split by the gateway and synthesized on several workers at once.
    maxInputChars: 2000,
  },
};
