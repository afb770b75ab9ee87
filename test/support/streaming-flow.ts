/**
 * The steps every plugin's streaming test takes against an {@link HttpStandIn}: start a stream,
 * let the stand-in send the headers and a first piece, read what reached the consumer.
 */
import { expect } from 'chai';
import type { ProviderAudioStream, TtsProvider } from '../../core';
import { HttpStandIn, type ReceivedRequest, type ScriptedAnswer } from './http-stand-in';

export interface StartedStream {
  readonly answer: ScriptedAnswer;
  readonly request: ReceivedRequest;
  readonly stream: ProviderAudioStream;
  readonly iterator: AsyncIterator<Uint8Array>;
  /** The first piece that reached the consumer. */
  readonly first: Uint8Array;
}

/**
 * Starts `open()` against the stand-in, answers `status`/`headers` and `firstPiece` (nothing
 * more), and reads the consumer's first chunk: it can only come from what was sent so far.
 */
export async function streamUntilFirstChunk(
  standIn: HttpStandIn,
  open: () => Promise<ProviderAudioStream>,
  headers: Record<string, string>,
  firstPiece: Uint8Array | string,
): Promise<StartedStream> {
  const answer = standIn.nextAnswer();
  const opening = open();
  const request = await answer.request;
  answer.head(200, headers);
  await answer.send(firstPiece);
  const stream = await opening;
  const iterator = stream.chunks[Symbol.asyncIterator]();
  const next = await iterator.next();
  expect(next.done, 'the stream ended before its first piece').to.equal(false);
  return { answer, request, stream, iterator, first: next.value as Uint8Array };
}

/** Starts `open()` and answers the request with a whole error answer. */
export async function answerBeforeStream(standIn: HttpStandIn, open: () => Promise<unknown>, status: number, headers: Record<string, string>, body: string): Promise<unknown> {
  const answer = standIn.nextAnswer();
  const opening = open();
  void opening.catch(() => undefined);
  await answer.request;
  await answer.answer(status, headers, body);
  return opening;
}

/** Whether `part` is a non-empty leading part of `whole`. */
export function isLeadingPart(part: Uint8Array, whole: Uint8Array): boolean {
  return part.byteLength > 0 && part.byteLength <= whole.byteLength && Buffer.from(whole.subarray(0, part.byteLength)).equals(Buffer.from(part));
}

/** A stand-in started before a suite's tests, with a provider pointed at it; closed after them. */
export interface StandInProvider {
  readonly standIn: HttpStandIn;
  readonly provider: TtsProvider;
}

/** Registers the suite's before/after hooks; the fields are set once `before` has run. */
export function standInProvider(create: (baseUrl: string) => Promise<TtsProvider>): StandInProvider {
  const suite = {} as { standIn: HttpStandIn; provider: TtsProvider };
  before(async () => {
    suite.standIn = await HttpStandIn.start();
    suite.provider = await create(suite.standIn.url);
  });
  after(() => suite.standIn.close());
  return suite;
}
