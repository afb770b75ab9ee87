import { badUpstreamResponse, gatewayError, parseUpstreamJson, serverSentEvents, type AudioFormat, type UpstreamStreamResponse } from '../../core';
import { baseResponseError, PROVIDER } from './errors';
import { decodeHexAudio } from './hex-audio';
import { checkReportedFormat, SYNTHESIS_FINISHED, type T2aAnswer } from './t2a-answer';

/**
 * The audio of a `stream: true` answer, event by event. MiniMax sends `text/event-stream`, each
 * event `data: {data: {audio: <hex>, status: 1}, base_resp, trace_id}`, then a closing event with
 * `status: 2` and `extra_info`. By default the closing event repeats the whole clip as one hex
 * string; the plugin asks for `stream_options.exclude_aggregated_audio` (platform.minimax.io,
 * T2A HTTP reference), and ignores the closing event's audio anyway once audio has streamed.
 * A failure comes as an event with a non-zero `base_resp.status_code`, or as a plain JSON answer
 * (MiniMax's official CLI reads both). A stream that ends without the closing event was cut
 * short and is an error, never a shorter clip. Events already received are not handed on once the
 * call is cancelled.
 */
export async function* streamedAudio(response: UpstreamStreamResponse, format: AudioFormat, secrets: readonly string[], signal: AbortSignal): AsyncGenerator<Uint8Array> {
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.includes('text/event-stream')) {
    yield await wholeAnswerAudio(response, format, secrets);
    return;
  }
  let audioSent = false;
  for await (const event of serverSentEvents(response.chunks)) {
    if (signal.aborted) throw gatewayError('TTS_ERR_CANCELLED', { subject: `The call to ${PROVIDER}` });
    const answer = parseEvent(event.data);
    const failure = baseResponseError(answer.base_resp, secrets);
    if (failure) throw failure;
    const hex = answer.data?.audio;
    if (answer.data?.status === SYNTHESIS_FINISHED) {
      checkReportedFormat(answer, format);
      if (!audioSent) yield decodeHexAudio(hex);
      return;
    }
    if (typeof hex === 'string' && hex.length > 0) {
      audioSent = true;
      yield decodeHexAudio(hex);
    }
  }
  throw badUpstreamResponse(PROVIDER, 'the event stream ended before its closing event (status 2)');
}

function parseEvent(data: string): T2aAnswer {
  try {
    const parsed: unknown = JSON.parse(data);
    if (parsed !== null && typeof parsed === 'object') return parsed as T2aAnswer;
  } catch {
    // reported below
  }
  throw badUpstreamResponse(PROVIDER, 'an event of the stream is not a JSON object');
}

/** A JSON answer where events were expected: a failure, or (if MiniMax did not stream) the whole clip. */
async function wholeAnswerAudio(response: UpstreamStreamResponse, format: AudioFormat, secrets: readonly string[]): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of response.chunks) parts.push(chunk);
  const answer = parseUpstreamJson<T2aAnswer>(PROVIDER, new Uint8Array(Buffer.concat(parts)));
  const failure = baseResponseError(answer?.base_resp, secrets);
  if (failure) throw failure;
  checkReportedFormat(answer, format);
  return decodeHexAudio(answer?.data?.audio);
}
