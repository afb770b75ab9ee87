/**
 * Every built-in plugin as the uniform-semantics test runs it: its stand-in (or, for espeak, the
 * real engine) and the models that cover each distinct capability shape it declares.
 */
import { optionsFor } from '../plugins/edge/harness';
import { EdgeStandIn } from '../plugins/edge/stand-in';
import * as azure from '../plugins/azure/stand-in';
import * as cartesia from '../plugins/cartesia/stand-in';
import * as deepgram from '../plugins/deepgram/stand-in';
import * as elevenlabs from '../plugins/elevenlabs/stand-in';
import * as google from '../plugins/google/stand-in';
import * as minimax from '../plugins/minimax/stand-in';
import * as openAi from '../plugins/openai/stand-in';
import * as openAiCompatible from '../plugins/openai-compatible/stand-in';
import * as polly from '../plugins/polly/stand-in';
import { readEdgeMessages, recordingFetch, SYNTHESIS_READERS, type OutgoingCall } from './outgoing-requests';
import type { PipelineSetup } from './semantics-pipeline';

export interface SemanticsSubject {
  readonly pluginId: string;
  /** One model per distinct capability shape (the test checks none is missing). */
  readonly models: readonly string[];
  /** Real synthesis: natively applied adjustments change the audio and are measured too. */
  readonly realEngine?: boolean;
  /** Text of the short requests. */
  readonly text: string;
  setUp(): Promise<PipelineSetup>;
}

const SHORT_TEXT = 'The quick brown fox jumps over the lazy dog.';

/** A cloud plugin behind its recorded-speech stand-in, with every outgoing call recorded. */
function cloud(pluginId: string, models: readonly string[], standIn: { standInFetch(): typeof fetch; standInOptions: object }): SemanticsSubject {
  return {
    pluginId,
    models,
    text: SHORT_TEXT,
    setUp: async () => {
      const calls: OutgoingCall[] = [];
      const read = SYNTHESIS_READERS[pluginId];
      return { pluginId, options: { ...standIn.standInOptions }, fetch: recordingFetch(standIn.standInFetch(), calls), sent: () => read(calls) };
    },
  };
}

export const SUBJECTS: readonly SemanticsSubject[] = [
  // gpt-4o-mini-tts differs only in taking instructions, which is its own capability shape.
  cloud('openai', ['tts-1', 'gpt-4o-mini-tts'], openAi),
  cloud('openai-compatible', ['kokoro-kokoro'], openAiCompatible),
  // The recorded model list: each model's limit (10,000, 5,000, 40,000) is capped at 2,000 characters.
  cloud('elevenlabs', ['eleven_multilingual_v2', 'eleven_v3', 'eleven_flash_v2_5'], elevenlabs),
  cloud('azure', ['azure-tts'], azure),
  cloud('google', ['google-standard', 'google-studio', 'google-chirp-hd'], google),
  cloud('polly', ['polly-neural'], polly),
  cloud('minimax', ['speech-2.8-hd'], minimax),
  cloud('deepgram', ['aura-2', 'aura'], deepgram),
  cloud('cartesia', ['sonic-3', 'sonic-2'], cartesia),
  {
    pluginId: 'edge',
    models: ['edge-tts'],
    text: SHORT_TEXT,
    setUp: async () => {
      const standIn = await EdgeStandIn.start();
      return {
        pluginId: 'edge',
        options: { ...optionsFor(standIn) },
        fetch,
        sent: () => readEdgeMessages(standIn.connections.flatMap((connection) => connection.messages)),
        stop: () => standIn.close(),
      };
    },
  },
  {
    pluginId: 'espeak',
    models: ['espeak-ng'],
    realEngine: true,
    text: 'The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore.',
    setUp: async () => ({
      pluginId: 'espeak',
      options: { workers: 2 },
      fetch: () => Promise.reject(new Error('espeak must not use the network')),
    }),
  },
];
