/**
 * The audio engine's public pieces (re-exported by core/index.ts).
 * Decodes wav (8/16/24/32-bit int, 32/64-bit float, any channels, open-ended sizes), raw pcm
 * s16le, mp3, Ogg Opus and flac; encodes wav, pcm, mp3, Ogg Opus and flac, whole or streamed.
 * AAC (ADTS) is encoded and decoded by an ffmpeg process when one runs (`aacAvailable`).
 */
export { AudioProcessor, type AudioProcessorOptions } from './audio-processor';
export type { AudioInput, AudioJob, AudioResult } from './audio-job';
export { runAudioJob } from './audio-pipeline';
export type { CodecOptions } from './codec-options';
export { type PcmAudio, createPcm, pcmDurationSeconds } from './pcm';
export { sniffAudioFormat } from './sniff-audio-format';
export { decodeAudio, decodableFormats } from './decode/decode-audio';
export { encodeAudio, encodableFormats, isEncodableFormat, unsupportedOutput } from './encode/encode-audio';
export type { EncodedAudio } from './encode/encoded-audio';
export type { StreamEncoder } from './encode/stream-encoder';
export { createStreamEncoder } from './encode/create-stream-encoder';
export { encoderInputRate } from './encode/encoder-rates';
export { probeFfmpeg, probeFfmpegInBackground, aacAvailable, type FfmpegProbe } from './ffmpeg/ffmpeg-probe';
// The stream types (AudioStreamSpec, AudioStreamSession, EncodedPiece) are the synthesis ports' own;
// core/audio/stream/audio-stream-types.ts re-exports them from there.
export { AudioStreamPipeline } from './stream/audio-stream-pipeline';
export { changeTempoAndPitch, SonicStream } from './dsp/sonic';
export { applyGain, softLimit, LIMITER_KNEE, LIMITER_CEILING } from './dsp/gain';
export { resample } from './dsp/resample';
export { StreamResampler } from './dsp/stream-resampler';
export { joinPcm, SEAM_CROSSFADE_SECONDS } from './dsp/join';
export { SeamJoiner } from './dsp/seam-joiner';
