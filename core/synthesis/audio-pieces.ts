import type { AudioFormat } from '../audio/audio-format';
import { SNIFF_BYTES } from '../audio/decode/check-declared-format';
import { unwholeReason, walkerFor } from '../audio/frame-walker';
import { sniffAudioFormat } from '../audio/sniff-audio-format';
import { gatewayError } from '../errors';
import { containerOnPcm, unusableAudio, type CheckedChunk } from './checked-audio';
import type { ProviderAudioStream } from '../plugin/contract';
import type { AudioChunk, AudioEngine, AudioStreamSession, EncodedPiece } from './ports';
import { passesAsItCame, type SynthesisPlan } from './synthesis-plan';
import type { LookAheadBudget } from './look-ahead-budget';
import { LookAheadCalls } from './look-ahead-calls';
import { WholeSamples } from '../audio/whole-samples';
import { WholeWavFrames } from '../audio/whole-wav-frames';
import { audioDurationSeconds } from './audio-duration';

/** What the stream of one request has produced so far. */
export interface StreamProgress {
  bytes: number;
  /** Known when the gateway encoded the audio itself. */
  durationSeconds?: number;
  /** Output sample rate, once known. */
  sampleRate?: number;
}

export interface PieceSources {
  readonly plan: SynthesisPlan;
  readonly output: AudioFormat;
  readonly sampleRate?: number;
  readonly engine: AudioEngine;
  /** Where the stream's chunk calls take their share of the calls run ahead (released when it ends). */
  readonly lookAhead: Pick<LookAheadBudget, 'join'>;
  /** One provider call for chunk `index`, already checked (sniffed) audio. */
  readonly callChunk: (index: number, signal: AbortSignal) => Promise<AudioChunk>;
  /** The provider's own stream for the whole text, when it has one and nothing is to be done. */
  readonly openProviderStream?: () => Promise<ProviderAudioStream>;
  /** Told when the provider's stream turns out to be another container than its label (decoded as what it is). */
  readonly onMislabelledStream?: (audio: CheckedChunk) => void;
  readonly provider: string;
  readonly signal: AbortSignal;
  readonly progress: StreamProgress;
  /** When the stream must have started (Unix milliseconds): its session is refused at once if it cannot (503). */
  readonly startDeadline?: number;
  /** Throws when the audio made so far is too long (`maxAudioDuration`); the rest is then cancelled. */
  readonly checkDuration?: (seconds: number | undefined) => void;
}

/**
 * The encoded audio of one request, piece by piece: the provider's own bytes as they arrive when
 * the gateway has nothing to do, else each chunk's audio through one streaming session (seams,
 * DSP state and encoder state carried across chunks). Stopping the iteration early cancels the
 * provider calls still running and releases the session.
 */
export async function* audioPieces(sources: PieceSources): AsyncGenerator<Uint8Array> {
  const { plan } = sources;
  if (!plan.needsAudioProcessing && sources.openProviderStream) {
    yield* passThroughStream(await sources.openProviderStream(), sources);
    return;
  }
  const share = sources.lookAhead.join();
  const calls = new LookAheadCalls(plan.chunks.length, () => share.calls(), sources.callChunk);
  try {
    if (!plan.needsAudioProcessing) {
      const only = await calls.take(0);
      if (passesAsItCame(only, sources.output, sources.sampleRate)) {
        count(sources.progress, only.audio, only.sampleRate);
        // Counted as its file would be (its headers or frames), and held to maxAudioDuration so.
        const seconds = audioDurationSeconds(only.audio, only.format, only.sampleRate);
        if (seconds !== undefined) sources.progress.durationSeconds = seconds;
        sources.checkDuration?.(seconds);
        yield only.audio;
        return;
      }
      yield* encodeChunks(sources, async () => [only]);
      return;
    }
    yield* encodeChunks(sources, async function* () {
      for (let index = 0; index < plan.chunks.length; index += 1) yield await calls.take(index);
    });
  } finally {
    share.release();
    calls.cancel(gatewayError('TTS_ERR_CANCELLED', { subject: 'A chunk synthesized ahead (the stream ended)' }));
  }
}

/** Chunks through one session; the session is closed whatever happens. */
async function* encodeChunks(sources: PieceSources, chunks: () => AsyncIterable<AudioChunk> | Promise<AudioChunk[]>): AsyncGenerator<Uint8Array> {
  const { dsp } = sources.plan;
  const spec = { output: sources.output, ...dsp, ...(sources.sampleRate ? { sampleRate: sources.sampleRate } : {}) };
  const session: AudioStreamSession = await sources.engine.openStream(spec, { signal: sources.signal, deadline: sources.startDeadline });
  try {
    for await (const chunk of await chunks()) {
      const piece = await session.push(chunk, {}, sources.signal);
      if (record(sources, piece)) yield piece.audio;
    }
    const last = await session.end(sources.signal);
    if (record(sources, last)) yield last.audio;
  } finally {
    await session.close();
  }
}

/**
 * The provider's stream handed on as it arrives, once its first bytes are known to be the audio it
 * claims to be. Bytes that turn out to be another container are decoded as what they are.
 */
async function* passThroughStream(stream: ProviderAudioStream, sources: PieceSources): AsyncGenerator<Uint8Array> {
  const iterator = stream.chunks[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let finished = false;
  try {
    // As many bytes as the sniffer needs to name every format (an Ogg page header and its OpusHead).
    while (headBytes < SNIFF_BYTES) {
      const next = await iterator.next();
      if (next.done) {
        finished = true;
        break;
      }
      head.push(next.value);
      headBytes += next.value.byteLength;
    }
    if (headBytes === 0) throw unusableAudio(sources.provider, 'empty audio');
    const headAudio = concat(head);
    // Raw pcm has no signature: only a container's that cannot be samples overrides its label.
    const sniffed = stream.format === 'pcm' ? (containerOnPcm(headAudio) ?? 'pcm') : sniffAudioFormat(headAudio);
    if (sniffed === undefined) throw unusableAudio(sources.provider, `bytes labelled ${stream.format} are no known audio format`);
    if (sniffed === 'pcm' && !stream.sampleRate) throw unusableAudio(sources.provider, 'pcm without a sample rate');
    if (sniffed !== sources.output) {
      const rest = finished ? [] : await drain(iterator);
      finished = true;
      const whole: CheckedChunk = { audio: concat([headAudio, ...rest]), format: sniffed, sampleRate: stream.sampleRate, ...(sniffed !== stream.format && { receivedAs: sniffed }) };
      if (whole.receivedAs) sources.onMislabelledStream?.(whole);
      yield* encodeChunks(sources, async () => [whole]);
      return;
    }
    // The bytes go out as they come: a stream cut short is found at its end, and fails then.
    const walker = walkerFor(sniffed);
    // Raw pcm goes out in whole samples, WAV in whole sample frames after its header; other formats as they came.
    const samples = sniffed === 'pcm' ? new WholeSamples() : undefined;
    const frames = sniffed === 'wav' ? new WholeWavFrames() : undefined;
    for (let bytes: Uint8Array | undefined = headAudio; bytes !== undefined; ) {
      walker?.push(bytes);
      const piece = samples ? samples.take(bytes) : frames ? frames.take(bytes) : bytes;
      if (piece.byteLength > 0) {
        countPassedThrough(sources, piece, stream, walker);
        yield piece;
      }
      const next: IteratorResult<Uint8Array> = finished ? { done: true, value: undefined } : await iterator.next();
      finished = next.done === true;
      bytes = next.done ? undefined : next.value;
    }
    const broken = walker && unwholeReason(walker, sniffed);
    if (broken) throw unusableAudio(sources.provider, broken);
    // A whole WAV's last partial frame (open-ended data, or a chunk after it) is still its bytes.
    const held = frames?.rest();
    if (held && held.byteLength > 0) {
      countPassedThrough(sources, held, stream, walker);
      yield held;
    }
    if (samples?.holding) throw unusableAudio(sources.provider, 'pcm with an odd number of bytes (cut short?)');
  } finally {
    // Stop the upstream body when the client went away or a check failed.
    if (!finished) await iterator.return?.().catch(() => undefined);
  }
}

async function drain(iterator: AsyncIterator<Uint8Array>): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) parts.push(next.value);
  return parts;
}

function record(sources: PieceSources, piece: EncodedPiece): boolean {
  sources.progress.durationSeconds = piece.durationSeconds;
  count(sources.progress, piece.audio, piece.sampleRate);
  sources.checkDuration?.(piece.durationSeconds);
  return piece.audio.byteLength > 0;
}

/**
 * The provider's own bytes: their length is known as they pass for raw pcm (16-bit mono), from
 * the frames walked for MP3 and ADTS, the pages' granule positions for Ogg Opus and the header's
 * byte rate for WAV, the frame headers' block sizes for FLAC (bounded by STREAMINFO's total), and
 * kept as the stream's seconds (the usage report's audioSeconds), not only checked against maxAudioDuration.
 */
function countPassedThrough(sources: PieceSources, audio: Uint8Array, stream: ProviderAudioStream, walker: { readonly seconds: number } | undefined): void {
  count(sources.progress, audio, stream.sampleRate);
  if (stream.format === 'pcm' && stream.sampleRate) sources.progress.durationSeconds = sources.progress.bytes / 2 / stream.sampleRate;
  else if (walker && walker.seconds > 0) sources.progress.durationSeconds = walker.seconds;
  else return;
  sources.checkDuration?.(sources.progress.durationSeconds);
}

function count(progress: StreamProgress, audio: Uint8Array, sampleRate: number | undefined): void {
  progress.bytes += audio.byteLength;
  // 0: a session that has decoded nothing yet (a FLAC answer is decoded at its end) knows no rate.
  if (sampleRate) progress.sampleRate ??= sampleRate;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const whole = new Uint8Array(parts.reduce((total, part) => total + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.byteLength;
  }
  return whole;
}
