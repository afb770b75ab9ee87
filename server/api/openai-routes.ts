import { OPENAI_CONTENT_TYPES, SPEECH_SCHEMA } from '../openai/speech-schema';
import { VOICE_LIST_ERRORS } from './api-routes';
import type { RouteDescription } from './route-description';
import { BINARY_SCHEMA } from './response-schemas';
import { OPENAI_MODEL_LIST_SCHEMA, OPENAI_MODEL_SCHEMA, OPENAI_VOICE_LIST_SCHEMA, SPEECH_EVENTS_SCHEMA } from './openai-schemas';
import { INSTRUCTIONS_HEADER, SYNTHESIS_HEADERS, SYNTHESIS_OPTIONAL_HEADERS } from './synthesis-headers';

const TAG = 'OpenAI-compatible';

/**
 * The routes under /v1, in OpenAI's shapes: an OpenAI SDK works by changing its base URL.
 * Registered by server/openai/openai-router.ts; documented beside API_ROUTES.
 */
export const OPENAI_ROUTES = {
  speech: {
    method: 'post',
    path: '/v1/audio/speech',
    tag: TAG,
    summary: 'Speech from text, streamed as it is made',
    description:
      "OpenAI's body, plus the gateway's `pitch` and `volume` (0.5 to 2.0). `input`: 1 to 10,000 characters, split at sentences. " +
      '`stream_format: sse` answers server-sent events instead of the audio bytes. `pcm` is 24 kHz 16-bit mono little-endian.',
    security: 'key',
    errorFormat: 'openai',
    requestBody: { schema: SPEECH_SCHEMA, example: { model: 'tts-1', input: 'Hello from the gateway.', voice: 'alloy', response_format: 'mp3', speed: 1.0 } },
    responses: [
      {
        status: 200,
        description: 'The audio, chunked as it is made (or its events with `stream_format: sse`)',
        content: [...Object.values(OPENAI_CONTENT_TYPES).map((mediaType) => ({ mediaType, schema: BINARY_SCHEMA })), { mediaType: 'text/event-stream', schema: SPEECH_EVENTS_SCHEMA }],
        headers: SYNTHESIS_HEADERS,
        optionalHeaders: { ...SYNTHESIS_OPTIONAL_HEADERS, ...INSTRUCTIONS_HEADER },
      },
    ],
    limited: true,
    errors: ['TTS_ERR_MODEL_NOT_FOUND', 'TTS_ERR_VOICE_NOT_FOUND', 'TTS_ERR_UNSUPPORTED_FORMAT', 'TTS_ERR_AUDIO_TOO_LONG', 'TTS_ERR_RATE_LIMITED', 'TTS_ERR_UPSTREAM', 'TTS_ERR_UPSTREAM_AUTH', 'TTS_ERR_UPSTREAM_QUOTA', 'TTS_ERR_UPSTREAM_BAD_RESPONSE', 'TTS_ERR_UNAVAILABLE', 'TTS_ERR_TIMEOUT'],
  },
  openAiModels: {
    method: 'get',
    path: '/v1/models',
    tag: TAG,
    summary: 'List the models and aliases',
    security: 'key',
    errorFormat: 'openai',
    responses: [{ status: 200, description: 'Models, then aliases', content: [{ mediaType: 'application/json', schema: OPENAI_MODEL_LIST_SCHEMA }] }],
  },
  openAiModel: {
    method: 'get',
    // A wildcard: an id may hold slashes (`piper/en_US-amy-low`), which some clients send unencoded.
    path: '/v1/models/*id',
    tag: TAG,
    summary: 'One model or alias',
    security: 'key',
    errorFormat: 'openai',
    parameters: [{ name: 'id', in: 'path', description: 'A model name or alias', schema: { type: 'string' }, example: 'tts-1' }],
    responses: [{ status: 200, description: 'The model', content: [{ mediaType: 'application/json', schema: OPENAI_MODEL_SCHEMA }] }],
    errors: ['TTS_ERR_MODEL_NOT_FOUND'],
  },
  openAiVoices: {
    method: 'get',
    path: '/v1/audio/voices',
    tag: TAG,
    summary: 'List the voices of a model',
    description: 'The shape self-hosted OpenAI-compatible servers (Kokoro-FastAPI) answer.',
    security: 'key',
    errorFormat: 'openai',
    parameters: [{ name: 'model', in: 'query', description: 'A model name or alias; default `tts-1`', schema: { type: 'string' }, example: 'tts-1' }],
    responses: [{ status: 200, description: 'The voices', content: [{ mediaType: 'application/json', schema: OPENAI_VOICE_LIST_SCHEMA }] }],
    errors: VOICE_LIST_ERRORS,
  },
} satisfies Record<string, RouteDescription>;

/** The id of a /v1 route: its key in OPENAI_ROUTES, its operationId and its handler's name. */
export type OpenAiRouteId = keyof typeof OPENAI_ROUTES;
