import type { Response } from 'express';
import { unfinishedAnswer } from './unfinished-answer';

/**
 * The client of an unfinished answer went away after it began (its first audio was sent): the
 * request keeps its characters counted in the daily quota (the provider made them and the client
 * had them), and its usage row records them. The limits and the usage ask the same question, so
 * billing and quota cannot disagree. A stream the gateway broke off, or one left before any
 * audio, is neither: its characters are given back, and its row has none.
 */
export function clientLeftAfterAnswerBegan(response: Response): boolean {
  return response.headersSent && unfinishedAnswer(response).clientLeft;
}
