import { CREATE_KEY_SCHEMA, LOGIN_SCHEMA, REGISTER_SCHEMA, TTS_SYNC_SCHEMA } from '../validation/request-schemas';
import type { SchemaObject } from 'ajv';
import type { ErrorCode } from '../../core';
import type { ContentDescription, ResponseDescription, RouteDescription } from './route-description';
import {
  AUDIO_MEDIA_TYPES,
  BINARY_SCHEMA,
  ISSUED_ACCOUNT_KEY_SCHEMA,
  ISSUED_KEY_SCHEMA,
  KEY_LIST_SCHEMA,
  LIVENESS_SCHEMA,
  MODEL_LIST_SCHEMA,
  READINESS_SCHEMA,
  REVOKED_KEY_SCHEMA,
  SYNTHESIS_RESULT_SCHEMA,
  USAGE_REPORT_SCHEMA,
  VOICE_LIST_SCHEMA,
  successEnvelopeSchema,
} from './response-schemas';
import { CONTENT_RANGE_HEADER, DOWNLOAD_HEADERS } from './download-headers';
import { SYNTHESIS_HEADERS, SYNTHESIS_OPTIONAL_HEADERS } from './synthesis-headers';
import { READINESS_RETRY_AFTER_SECONDS } from '../operations/readiness';

const json = (schema: SchemaObject, example?: unknown): ContentDescription[] => [
  { mediaType: 'application/json', schema, ...(example !== undefined && { example }) },
];

const ok = (message: string, data: SchemaObject, description = message): ResponseDescription => ({
  status: 200,
  description,
  content: json(successEnvelopeSchema(data, message)),
});

/** What a call to a provider can answer, passed through to the client (after retries). */
const PROVIDER_ERRORS: readonly ErrorCode[] = [
  'TTS_ERR_RATE_LIMITED',
  'TTS_ERR_UPSTREAM',
  'TTS_ERR_UPSTREAM_AUTH',
  // A provider refusing this account a voice or model (MiniMax 2042, 2038).
  'TTS_ERR_FORBIDDEN',
  'TTS_ERR_UPSTREAM_QUOTA',
  'TTS_ERR_UPSTREAM_BAD_RESPONSE',
  'TTS_ERR_UNAVAILABLE',
  'TTS_ERR_TIMEOUT',
];

const SYNTHESIS_ERRORS: readonly ErrorCode[] = ['TTS_ERR_MODEL_NOT_FOUND', 'TTS_ERR_VOICE_NOT_FOUND', 'TTS_ERR_UNSUPPORTED_FORMAT', 'TTS_ERR_AUDIO_TOO_LONG', ...PROVIDER_ERRORS];

/** What listing a model's voices can answer: the provider is asked when the list is not cached (its refusals pass through). */
export const VOICE_LIST_ERRORS: readonly ErrorCode[] = ['TTS_ERR_MODEL_NOT_FOUND', ...PROVIDER_ERRORS];

/** The account routes' own work is on the account database: one that cannot answer in time is a 503. */
const DATABASE_ERRORS: readonly ErrorCode[] = ['TTS_ERR_UNAVAILABLE'];

const credentialsExample = { email: 'ada@example.com', password: 'correct horse battery' };
const keyId = { name: 'id', in: 'path', description: 'The key id (`id` in the key list)', schema: { type: 'string' }, example: '38bc2ae2-f7f1-4f7f-98ab-0c42b1b1f8eb' } as const;

/**
 * Every route of the HTTP API, in registration order. Adding a route is adding an entry here
 * and its handler in `server/app.ts` (the compiler asks for it); the OpenAPI document follows.
 */
export const API_ROUTES = {
  register: {
    method: 'post',
    path: '/api/v1/auth/register',
    tag: 'Accounts and keys',
    summary: 'Register an account and get its first API key',
    description:
      'Open unless `auth.registration` is `closed` (403). Each client address (IPv6: its /64) may register `auth.throttle.addressRegistrations` accounts per window, then 429 with Retry-After. The key is shown only in this answer.',
    security: 'public',
    errorFormat: 'envelope',
    requestBody: { schema: REGISTER_SCHEMA, example: credentialsExample },
    responses: [ok('Account registered; keep the API key, it is shown only once', ISSUED_ACCOUNT_KEY_SCHEMA)],
    errors: ['TTS_ERR_FORBIDDEN', 'TTS_ERR_CONFLICT', 'TTS_ERR_RATE_LIMITED', ...DATABASE_ERRORS],
  },
  login: {
    method: 'post',
    path: '/api/v1/auth/login',
    tag: 'Accounts and keys',
    summary: 'Log in: issues a new API key named `login`',
    description:
      'An unknown email and a wrong password answer the same 401. At `auth.maxKeysPerAccount` live keys the oldest key a login made is revoked to make room; when the account holds no such key (all made with POST /auth/keys, at registration or by the CLI), 409 and nothing changes.',
    security: 'public',
    errorFormat: 'envelope',
    requestBody: { schema: LOGIN_SCHEMA, example: credentialsExample },
    responses: [ok('Logged in; a new API key was issued', ISSUED_ACCOUNT_KEY_SCHEMA)],
    errors: ['TTS_ERR_UNAUTHORIZED', 'TTS_ERR_CONFLICT', 'TTS_ERR_RATE_LIMITED', ...DATABASE_ERRORS],
  },
  listKeys: {
    method: 'get',
    path: '/api/v1/auth/keys',
    tag: 'Accounts and keys',
    summary: "List the caller's live API keys",
    security: 'key',
    errorFormat: 'envelope',
    responses: [ok('API keys listed', KEY_LIST_SCHEMA)],
    errors: DATABASE_ERRORS,
  },
  createKey: {
    method: 'post',
    path: '/api/v1/auth/keys',
    tag: 'Accounts and keys',
    summary: 'Create another API key for the caller',
    description:
      'Several keys may be live at once: create the new one, switch, revoke the old one. An account holds at most `auth.maxKeysPerAccount` live keys (default 100): at that many, 409 and nothing is made; revoke one first.',
    security: 'key',
    errorFormat: 'envelope',
    requestBody: { schema: CREATE_KEY_SCHEMA, example: { name: 'ci', expiresIn: 2_592_000 } },
    responses: [ok('API key created; it is shown only once', ISSUED_KEY_SCHEMA)],
    errors: ['TTS_ERR_CONFLICT', ...DATABASE_ERRORS],
  },
  revokeKey: {
    method: 'delete',
    path: '/api/v1/auth/keys/:id',
    tag: 'Accounts and keys',
    summary: "Revoke one of the caller's keys",
    description: 'It stops working at once. Another account\'s key id answers 404.',
    security: 'key',
    errorFormat: 'envelope',
    parameters: [keyId],
    responses: [ok('API key revoked', REVOKED_KEY_SCHEMA)],
    errors: ['TTS_ERR_NOT_FOUND', ...DATABASE_ERRORS],
  },
  synthesize: {
    method: 'post',
    path: '/api/v1/common/tts-sync',
    tag: 'Synthesis',
    summary: 'Synthesize speech and get a download link',
    description:
      'Synchronous: answers when the file is stored. `speed`, `pitch` and `volume` mean the same on every model; ' +
      'what the provider cannot do natively the gateway does on PCM, as the `X-TTS-Applied` header reports. ' +
      '`text`: 1 to 10,000 characters (Unicode code points), not only whitespace or invisible characters.',
    security: 'key',
    errorFormat: 'envelope',
    requestBody: {
      schema: TTS_SYNC_SCHEMA,
      example: { model: 'espeak-ng', voice: 'en-us', text: 'Hello from the gateway.', speed: 1.2, pitch: 1.0, volume: 1.0, format: 'mp3' },
    },
    responses: [{ ...ok('Speech synthesized', SYNTHESIS_RESULT_SCHEMA), headers: SYNTHESIS_HEADERS, optionalHeaders: SYNTHESIS_OPTIONAL_HEADERS }],
    limited: true,
    // The only synthesis route that stores its audio.
    errors: [...SYNTHESIS_ERRORS, 'TTS_ERR_STORAGE_FULL'],
  },
  streamSpeech: {
    method: 'post',
    path: '/api/v1/common/tts-stream',
    tag: 'Synthesis',
    summary: 'Synthesize speech and receive the audio as it is made',
    description:
      "tts-sync's body; the answer is the audio itself, chunked, starting once the first sentence is ready. Nothing is stored. " +
      'A failure after the audio began cuts the connection (never a clean end that looks like success).',
    security: 'key',
    errorFormat: 'envelope',
    requestBody: { schema: TTS_SYNC_SCHEMA, example: { model: 'espeak-ng', voice: 'en-us', text: 'Hello from the gateway. This sentence follows.', format: 'mp3' } },
    responses: [
      { status: 200, description: 'The audio, chunked', content: AUDIO_MEDIA_TYPES.map((mediaType) => ({ mediaType, schema: BINARY_SCHEMA })), headers: SYNTHESIS_HEADERS, optionalHeaders: SYNTHESIS_OPTIONAL_HEADERS },
    ],
    limited: true,
    errors: SYNTHESIS_ERRORS,
  },
  usage: {
    method: 'get',
    path: '/api/v1/usage',
    tag: 'Accounts and keys',
    summary: "The caller's account usage: totals, by model and by UTC day",
    description: 'Default: the last 30 days, today included; at most 366 days.',
    security: 'key',
    errorFormat: 'envelope',
    parameters: [
      { name: 'from', in: 'query', description: 'First UTC day, `YYYY-MM-DD`', schema: { type: 'string', format: 'date' }, example: '2026-01-01' },
      { name: 'to', in: 'query', description: 'Last UTC day, `YYYY-MM-DD` (default: today)', schema: { type: 'string', format: 'date' }, example: '2026-01-31' },
    ],
    responses: [ok('Usage listed', USAGE_REPORT_SCHEMA)],
    errors: ['TTS_ERR_VALIDATION', ...DATABASE_ERRORS],
  },
  listModels: {
    method: 'get',
    path: '/api/v1/tools/models',
    tag: 'Models and voices',
    summary: 'List the model names',
    security: 'key',
    errorFormat: 'envelope',
    responses: [ok('Models listed', MODEL_LIST_SCHEMA)],
  },
  listVoices: {
    method: 'get',
    path: '/api/v1/tools/voices/:model',
    tag: 'Models and voices',
    summary: 'List the voices of one model',
    security: 'key',
    errorFormat: 'envelope',
    parameters: [{ name: 'model', in: 'path', description: 'A name from the model list', schema: { type: 'string' }, example: 'espeak-ng' }],
    responses: [ok('Voices listed', VOICE_LIST_SCHEMA)],
    errors: VOICE_LIST_ERRORS,
  },
  downloadAudio: {
    method: 'get',
    path: '/api/v1/audio/download/:file',
    tag: 'Synthesis',
    summary: 'Download a synthesized file',
    description:
      'The link of `audio_url` is a capability: no key is needed unless `storage.downloadRequiresKey` is set. ' +
      'Served for `storage.retention` after synthesis. Supports `Range` (206), `If-None-Match` / `If-Modified-Since` (304), ' +
      '`If-Match` / `If-Unmodified-Since` (412 when the file is not the one named) and HEAD. ' +
      'A store that fails, or does not find the file and start sending it within `storage.readTimeout`, answers 503 with `Retry-After`.',
    security: 'download',
    errorFormat: 'envelope',
    documentHead: true,
    parameters: [
      { name: 'file', in: 'path', description: 'The file name from `audio_url`', schema: { type: 'string' }, example: 'UPT4q9leJ3px0i68Mp_Paa03OLW4Me87.mp3' },
      { name: 'Range', in: 'header', description: 'One byte range, `bytes=0-1023`', schema: { type: 'string' } },
    ],
    responses: [
      { status: 200, description: 'The audio', content: AUDIO_MEDIA_TYPES.map((mediaType) => ({ mediaType, schema: BINARY_SCHEMA })), headers: DOWNLOAD_HEADERS },
      {
        status: 206,
        description: 'The requested range, with `Content-Range`',
        content: AUDIO_MEDIA_TYPES.map((mediaType) => ({ mediaType, schema: BINARY_SCHEMA })),
        headers: { ...DOWNLOAD_HEADERS, ...CONTENT_RANGE_HEADER },
      },
      { status: 304, description: 'Not modified since the validators the client sent', headers: DOWNLOAD_HEADERS },
    ],
    // 503: the store failed, or did not find the file and start sending it within `storage.readTimeout`.
    errors: ['TTS_ERR_NOT_FOUND', 'TTS_ERR_PRECONDITION_FAILED', 'TTS_ERR_RANGE_NOT_SATISFIABLE', 'TTS_ERR_UNAVAILABLE'],
  },
  liveness: {
    method: 'get',
    path: '/health/live',
    tag: 'Operations',
    summary: 'Liveness: the process serves HTTP',
    security: 'public',
    errorFormat: 'envelope',
    responses: [{ status: 200, description: 'Alive', content: json(LIVENESS_SCHEMA, { status: 'ok' }) }],
  },
  readiness: {
    method: 'get',
    path: '/health/ready',
    tag: 'Operations',
    summary: 'Readiness: database, audio store and providers',
    description:
      '503 when the database cannot be read, the audio folder cannot be written, no provider is ready, or the gateway is stopping. ' +
      'A single unavailable provider is reported with its last error but keeps the gateway ready, since the others still serve.',
    security: 'public',
    errorFormat: 'envelope',
    responses: [
      { status: 200, description: 'Ready', content: json(READINESS_SCHEMA) },
      {
        status: 503,
        description: 'Not ready; the body says which check failed',
        content: json(READINESS_SCHEMA),
        headers: { 'Retry-After': { description: `Seconds until asking again is worth it: always ${READINESS_RETRY_AFTER_SECONDS}, each request checks afresh`, schema: { type: 'integer', minimum: 0 } } },
      },
    ],
  },
} satisfies Record<string, RouteDescription>;

/** The id of a route: its key in API_ROUTES, its OpenAPI operationId and its handler's name. */
export type ApiRouteId = keyof typeof API_ROUTES;
