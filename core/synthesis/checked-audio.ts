import type { AudioFormat } from '../audio/audio-format';
import { readWavInfo } from '../audio/decode/wav-decoder';
import { sniffAudioFormat } from '../audio';
import { startsWithFrameChain, truncationOf } from '../audio/frame-walker';
import { GatewayError, gatewayError } from '../errors';
import type { Logger, ProviderAudio } from '../plugin/contract';
import type { AudioChunk } from './ports';

/** Containers whose signature cannot be raw samples by chance; a bare MPEG/ADTS sync can. */
const UNMISTAKABLE_ON_PCM: ReadonlySet<AudioFormat> = new Set(['wav', 'flac', 'opus']);
const ID3_TAG = [0x49, 0x44, 0x33];
/** Bare MP3/ADTS frames in a row that make `pcm` bytes a stream of frames, not samples. */
const FRAME_CHAIN_ON_PCM = 3;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** Provider audio after the check; `receivedAs` is set when the bytes were not what their label said. */
export interface CheckedProviderAudio extends ProviderAudio {
  /** The container the provider really sent (a WAV stripped to pcm included); absent when it matched. */
  readonly receivedAs?: AudioFormat;
}

/** A checked chunk for the pipeline, with what the provider really sent when it was mislabelled. */
export interface CheckedChunk extends AudioChunk {
  readonly receivedAs?: AudioFormat;
}

/**
 * Trusts the bytes, not the label. A WAV header on `pcm` is parsed and stripped (its sample rate
 * used); a container under another label is taken as what it is; both are said in `warnings`.
 * Bytes that are no known audio (or text, or odd-sized pcm), or an answer cut short (its last
 * MP3/ADTS frame or Ogg page not whole), are the provider's fault: a
 * TTS_ERR_UPSTREAM_BAD_RESPONSE, which the retry layer retries.
 */
export function checkedProviderAudio(instanceId: string, audio: ProviderAudio): CheckedProviderAudio {
  const checked = checkedLabel(instanceId, audio);
  // pcm stripped from a WAV is checked as the WAV it came in (the header gave its length).
  const cut = truncationOf(checked.audio, checked.format) ?? (checked.receivedAs === 'wav' ? truncationOf(audio.audio, 'wav') : undefined);
  if (cut) throw unusableAudio(instanceId, cut);
  return checked;
}

function checkedLabel(instanceId: string, audio: CheckedProviderAudio): CheckedProviderAudio {
  const bytes = audio.audio;
  if (bytes.byteLength === 0) throw unusableAudio(instanceId, 'empty audio');
  const sniffed = sniffAudioFormat(bytes);
  if (audio.format === 'pcm') return checkedPcm(instanceId, audio, sniffed);
  if (sniffed === undefined) throw unusableAudio(instanceId, `bytes labelled ${audio.format} are no known audio format`);
  if (sniffed === audio.format) return audio;
  return relabelled(audio, sniffed);
}

function checkedPcm(instanceId: string, audio: CheckedProviderAudio, sniffed: AudioFormat | undefined): CheckedProviderAudio {
  const bytes = audio.audio;
  if (sniffed === 'wav') return pcmFromWav(instanceId, audio);
  const container = containerOnPcm(bytes, sniffed);
  if (container) return relabelled(audio, container);
  if (looksLikeJson(bytes)) throw unusableAudio(instanceId, 'text where pcm audio was expected');
  if (!audio.sampleRate) throw unusableAudio(instanceId, 'pcm without a sample rate');
  if (bytes.byteLength % 2 !== 0) throw unusableAudio(instanceId, 'pcm with an odd number of bytes (cut short?)');
  return audio;
}

/**
 * The container that bytes labelled `pcm` are in, when their start cannot be samples: a WAV,
 * FLAC or Ogg Opus signature, an ID3 tag, or a chain of whole MP3/ADTS frames.
 */
export function containerOnPcm(bytes: Uint8Array, sniffed = sniffAudioFormat(bytes)): AudioFormat | undefined {
  if (sniffed === undefined) return undefined;
  if (UNMISTAKABLE_ON_PCM.has(sniffed) || startsWith(bytes, ID3_TAG)) return sniffed;
  if ((sniffed === 'mp3' || sniffed === 'aac') && startsWithFrameChain(bytes, sniffed, FRAME_CHAIN_ON_PCM)) return sniffed;
  return undefined;
}

/** 16-bit mono WAV is pcm with a header: strip it. Anything else is decoded as the WAV it is. */
function pcmFromWav(instanceId: string, audio: CheckedProviderAudio): CheckedProviderAudio {
  let info: ReturnType<typeof readWavInfo>;
  try {
    info = readWavInfo(audio.audio);
  } catch {
    throw unusableAudio(instanceId, 'pcm arrived as a WAV file whose header cannot be read');
  }
  if (info.formatTag !== 1 || info.bitsPerSample !== 16 || info.channels !== 1) return relabelled(audio, 'wav');
  const samples = audio.audio.subarray(info.dataOffset, info.dataOffset + info.dataBytes - (info.dataBytes % 2));
  if (samples.byteLength === 0) throw unusableAudio(instanceId, 'a WAV header with no samples');
  return {
    ...audio,
    audio: samples,
    sampleRate: info.sampleRate,
    receivedAs: 'wav',
    warnings: [...audio.warnings, `pcm arrived with a WAV header: header stripped, its sample rate ${info.sampleRate} Hz used`],
  };
}

function relabelled(audio: CheckedProviderAudio, actual: AudioFormat): CheckedProviderAudio {
  return {
    ...audio,
    format: actual,
    receivedAs: actual,
    warnings: [...audio.warnings, `audio labelled ${audio.format} is ${actual}: decoded as ${actual}`],
  };
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((value, index) => bytes[index] === value);
}

/** An error document sent as if it were samples. */
function looksLikeJson(bytes: Uint8Array): boolean {
  const first = bytes[0];
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return false;
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/**
 * The checked audio as a chunk for the pipeline; what the check found out is logged (the retry
 * layer has usually checked already, and then there is nothing new to say). A mislabelled
 * answer keeps `receivedAs` (from this check or the retry layer's), for `X-TTS-Applied`.
 */
export function checkProviderAudio(instanceId: string, audio: ProviderAudio, logger: Logger, requestId: string): CheckedChunk {
  const checked = checkedProviderAudio(instanceId, audio);
  if (checked.format !== audio.format || checked.audio !== audio.audio) {
    logger.warn('provider audio is not what its label says', { requestId, provider: instanceId, labelled: audio.format, actual: checked.format });
  }
  const chunk = { audio: checked.audio, format: checked.format, sampleRate: checked.sampleRate, ...(audio.transferable === true && { transferable: true }) };
  return checked.receivedAs === undefined ? chunk : { ...chunk, receivedAs: checked.receivedAs };
}

/** A provider answer that is not usable audio: the provider's fault (502). */
export function unusableAudio(instanceId: string, what: string): GatewayError {
  return gatewayError('TTS_ERR_UPSTREAM_BAD_RESPONSE', { provider: instanceId, problem: `unusable audio: ${what}` }, {
    details: [{ reason: 'unusable_audio', provider: instanceId }],
  });
}
