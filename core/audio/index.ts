/**
 * The audio engine's public pieces (re-exported by core/index.ts).
 * Decodes wav (8/16/24/32-bit int, 32/64-bit float, any channels), raw pcm s16le, mp3, Ogg Opus
 * and flac; encodes wav, pcm, mp3, Ogg Opus and flac. AAC is neither decoded nor encoded.
 */
export { AudioProcessor, type AudioProcessorOptions } from './audio-processor';
export type { AudioInput, AudioJob, AudioResult } from './audio-job';
export { runAudioJob } from './audio-pipeline';
export { type PcmAudio, createPcm, pcmDurationSeconds } from './pcm';
export { sniffAudioFormat } from './sniff-audio-format';
export { decodeAudio, DECODABLE_FORMATS } from './decode/decode-audio';
export { encodeAudio, ENCODABLE_FORMATS, isEncodableFormat } from './encode/encode-audio';
export type { EncodedAudio } from './encode/encoded-audio';
export { changeTempoAndPitch } from './dsp/sonic';
export { applyGain, softLimit, LIMITER_KNEE, LIMITER_CEILING } from './dsp/gain';
export { resample } from './dsp/resample';
export { joinPcm, SEAM_CROSSFADE_SECONDS } from './dsp/join';
