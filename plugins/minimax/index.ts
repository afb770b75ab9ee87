/**
 * The `minimax` plugin: MiniMax's synchronous T2A v2 endpoint (`POST /v1/t2a_v2`, hex audio in
 * JSON) with the speech-0x / speech-2.x models and the account's voices (`POST /v1/get_voice`).
 */
import { definePlugin } from '../../core';
import { miniMaxOptionsSchema, type MiniMaxOptions } from './options-schema';
import { MiniMaxProvider } from './provider';

export type { MiniMaxOptions } from './options-schema';

export default definePlugin<MiniMaxOptions>({
  id: 'minimax',
  optionsSchema: miniMaxOptionsSchema,
  create: (options, context) => new MiniMaxProvider(options, context),
});
