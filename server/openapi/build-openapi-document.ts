import type { SchemaObject } from 'ajv';
import { GatewayError, type ErrorCode } from '../../core';
import { KEY_CHECK_ERRORS, type ContentDescription, type ErrorFormat, type HeaderDescription, type ParameterDescription, type RouteDescription } from '../api/route-description';
import { renderEnvelope, type ErrorRendering } from '../middleware/error-handler';
import { renderOpenAiError } from '../openai/openai-error';
import { ERROR_ENVELOPE_SCHEMA, ERROR_EXAMPLE_MESSAGES, OPENAI_ERROR_SCHEMA } from './error-schemas';

/** An OpenAPI 3.1 document as plain JSON. */
export type OpenApiDocument = Record<string, unknown> & { readonly openapi: '3.1.0'; readonly paths: Record<string, Record<string, unknown>> };

export interface OpenApiOptions {
  readonly version: string;
  /** `server.publicBaseUrl`; without it the document is relative to where it was fetched. */
  readonly publicBaseUrl?: string;
  /** `storage.downloadRequiresKey`: whether download routes need a key. */
  readonly downloadRequiresKey: boolean;
}

const KEY_SECURITY = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
const BODY_ERRORS: readonly ErrorCode[] = ['TTS_ERR_VALIDATION', 'TTS_ERR_MALFORMED_JSON', 'TTS_ERR_PAYLOAD_TOO_LARGE'];
/** Nobody receives a 499: the client has gone. */
const UNANSWERED: ReadonlySet<ErrorCode> = new Set(['TTS_ERR_CANCELLED']);
const EXAMPLE_TIMESTAMP = 1795239658655;
/** The renderers the routes answer errors with: statuses and examples come from them. */
const RENDERINGS: Readonly<Record<ErrorFormat, ErrorRendering>> = { envelope: renderEnvelope, openai: renderOpenAiError };
const SCHEMA_NAMES: Readonly<Record<ErrorFormat, string>> = { envelope: 'ErrorEnvelope', openai: 'OpenAiError' };

/** The status and body a route answers for a code, as its error renderer writes them. */
function renderedError(code: ErrorCode, format: ErrorFormat): { status: number; body: unknown } {
  const rendered = RENDERINGS[format](new GatewayError(code, ERROR_EXAMPLE_MESSAGES[code]));
  const body = format === 'envelope' ? { ...(rendered.body as object), timestamp: EXAMPLE_TIMESTAMP } : rendered.body;
  return { status: rendered.status, body };
}

/**
 * Whether an answer of this code may tell the OpenAI SDKs `x-should-retry: false`: rendered with a
 * Retry-After longer than any worth waiting, the renderer says so for every code it ever would.
 */
function mayRefuseRetries(code: ErrorCode, format: ErrorFormat): boolean {
  const rendered = RENDERINGS[format](new GatewayError(code, ERROR_EXAMPLE_MESSAGES[code], { retryAfterSeconds: 86_400 }));
  return rendered.headers?.['x-should-retry'] !== undefined;
}

/** Whether an answer of this code may state its wait in milliseconds (`retry-after-ms`): rendered with a short one, it does. */
function mayStateWaitMs(code: ErrorCode, format: ErrorFormat): boolean {
  const rendered = RENDERINGS[format](new GatewayError(code, ERROR_EXAMPLE_MESSAGES[code], { retryAfterSeconds: 1 }));
  return rendered.headers?.['retry-after-ms'] !== undefined;
}

const clone = <T>(value: T): T => structuredClone(value);

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
/** The limits' headers, on the answers of a route that counts against them (when limits apply). */
const RATE_LIMIT_HEADERS = { 'RateLimit-Policy': ref('RateLimitPolicy'), RateLimit: ref('RateLimit') };

function headerObjects(headers: Readonly<Record<string, HeaderDescription>> | undefined, required: boolean): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, header]) => [name, { description: header.description, ...(required && { required }), schema: clone(header.schema) }]));
}

/** A path parameter: `:name` (one segment) or `*name` (one or more). */
const PATH_PARAMETER = /[:*]([A-Za-z0-9_]+)/g;

/** `/api/v1/tools/voices/:model` -> `/api/v1/tools/voices/{model}`; `/v1/models/*id` -> `/v1/models/{id}`. */
function openApiPath(expressPath: string): string {
  return expressPath.replace(PATH_PARAMETER, '{$1}');
}

function pathParameterNames(expressPath: string): string[] {
  return [...expressPath.matchAll(PATH_PARAMETER)].map((match) => match[1]);
}

function parameter(description: ParameterDescription): Record<string, unknown> {
  return {
    name: description.name,
    in: description.in,
    description: description.description,
    required: description.in === 'path' ? true : (description.required ?? false),
    schema: clone(description.schema),
    ...(description.example !== undefined && { example: description.example }),
  };
}

function content(entries: readonly ContentDescription[]): Record<string, unknown> {
  return Object.fromEntries(
    entries.map((entry) => [entry.mediaType, { schema: clone(entry.schema), ...(entry.example !== undefined && { example: clone(entry.example) }) }]),
  );
}

function errorCodesOf(route: RouteDescription, keyed: boolean): ErrorCode[] {
  const codes = new Set<ErrorCode>([
    ...(keyed ? KEY_CHECK_ERRORS : []),
    ...(route.requestBody ? BODY_ERRORS : []),
    ...(route.errors ?? []),
    'TTS_ERR_INTERNAL',
  ]);
  return [...codes].filter((code) => !UNANSWERED.has(code));
}

/** A HEAD answer has the GET's status and headers and no body (RFC 9110 9.3.2), errors included. */
function errorResponses(route: RouteDescription, keyed: boolean, head: boolean): Record<string, unknown> {
  const byStatus = new Map<number, { codes: ErrorCode[]; example: unknown; refusesRetries: boolean; statesWaitMs: boolean }>();
  for (const code of errorCodesOf(route, keyed)) {
    const { status, body } = renderedError(code, route.errorFormat);
    const refusesRetries = mayRefuseRetries(code, route.errorFormat);
    const statesWaitMs = mayStateWaitMs(code, route.errorFormat);
    const group = byStatus.get(status);
    if (group) {
      group.codes.push(code);
      group.refusesRetries ||= refusesRetries;
      group.statesWaitMs ||= statesWaitMs;
    } else byStatus.set(status, { codes: [code], example: body, refusesRetries, statesWaitMs });
  }
  const responses: Record<string, unknown> = {};
  for (const [status, { codes, example, refusesRetries, statesWaitMs }] of [...byStatus].sort(([left], [right]) => left - right)) {
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\``).join(', '),
      headers: {
        'X-Request-Id': ref('XRequestId'),
        // 507: an account's storage quota says when its oldest file expires.
        ...((status === 429 || status === 503 || status === 507) && { 'Retry-After': ref('RetryAfter') }),
        // Set once the limits admitted or refused the request: on its 429 and on any failure after it.
        ...(status !== 401 && route.limited && RATE_LIMIT_HEADERS),
        ...(codes.includes('TTS_ERR_RANGE_NOT_SATISFIABLE') && { 'Content-Range': { description: '`bytes */<size>`: the size of the file', required: true, schema: { type: 'string' } } }),
        ...(refusesRetries && { 'x-should-retry': ref('XShouldRetry') }),
        ...(statesWaitMs && { 'retry-after-ms': ref('RetryAfterMs') }),
      },
      ...(!head && { content: { 'application/json': { schema: { $ref: `#/components/schemas/${SCHEMA_NAMES[route.errorFormat]}` }, example } } }),
    };
  }
  return responses;
}

function operation(id: string, route: RouteDescription, options: OpenApiOptions, head: boolean): Record<string, unknown> {
  const keyed = route.security === 'key' || (route.security === 'download' && options.downloadRequiresKey);
  const declared = new Set((route.parameters ?? []).filter((entry) => entry.in === 'path').map((entry) => entry.name));
  const undeclared = pathParameterNames(route.path).filter((name) => !declared.has(name));
  if (undeclared.length > 0) throw new Error(`Route ${id} (${route.path}) does not describe its path parameter ${undeclared.join(', ')}`);
  const successes = Object.fromEntries(
    route.responses.map((response) => [
      String(response.status),
      {
        description: response.description,
        headers: {
          'X-Request-Id': ref('XRequestId'),
          ...headerObjects(response.headers, true),
          ...headerObjects(response.optionalHeaders, false),
          ...(route.limited && RATE_LIMIT_HEADERS),
        },
        ...(response.content && !head && { content: content(response.content) }),
      },
    ]),
  );
  return {
    operationId: head ? `${id}Head` : id,
    tags: [route.tag],
    summary: head ? `${route.summary} (headers only)` : route.summary,
    ...(route.description !== undefined && { description: route.description }),
    security: keyed ? KEY_SECURITY : [],
    ...(route.parameters && { parameters: route.parameters.map(parameter) }),
    ...(route.requestBody && {
      requestBody: {
        required: true,
        ...(route.requestBody.description !== undefined && { description: route.requestBody.description }),
        content: content([{ mediaType: 'application/json', schema: route.requestBody.schema, example: route.requestBody.example }]),
      },
    }),
    responses: { ...successes, ...errorResponses(route, keyed, head) },
  };
}

/** The OpenAPI 3.1 document of a route table: the same schemas the routes validate with. */
export function buildOpenApiDocument(routes: Readonly<Record<string, RouteDescription>>, options: OpenApiOptions): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: string[] = [];
  for (const [id, route] of Object.entries(routes)) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = operation(id, route, options, false);
    if (route.documentHead) paths[path].head = operation(id, route, options, true);
    if (!tags.includes(route.tag)) tags.push(route.tag);
  }
  const schemas: Record<string, SchemaObject> = { ErrorEnvelope: clone(ERROR_ENVELOPE_SCHEMA), OpenAiError: clone(OPENAI_ERROR_SCHEMA) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'tts-gateway',
      version: options.version,
      summary: 'One text-to-speech API over many providers',
      license: { name: 'GPL-3.0-or-later', identifier: 'GPL-3.0-or-later' },
    },
    ...(options.publicBaseUrl !== undefined && { servers: [{ url: options.publicBaseUrl }] }),
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (`ttsg_…`) from registration, login or the CLI' },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'The same API key as `Authorization: Bearer ttsg_…` (what OpenAI clients send)' },
      },
      schemas,
      headers: {
        XRequestId: { description: "The request's id: the client's own `X-Request-Id` when it is sane, else a UUID", required: true, schema: { type: 'string' } },
        RetryAfter: { description: 'Seconds to wait before retrying', required: true, schema: { type: 'integer', minimum: 0 } },
        RetryAfterMs: { description: 'On `/v1`, when a retry is worth making and its wait is known: the wait in milliseconds, which the OpenAI SDKs read before Retry-After', schema: { type: 'integer', minimum: 0 } },
        RateLimitPolicy: {
          description: 'When limits apply: each limit as `"<name>";q=<quota>;w=<window seconds>` (`qu="characters"` for the daily characters)',
          schema: { type: 'string' },
          example: '"account-minute";q=60;w=60, "account-day";q=200000;qu="characters";w=86400',
        },
        RateLimit: { description: 'When limits apply: what is left of each, `"<name>";r=<remaining>;t=<seconds to reset>`', schema: { type: 'string' }, example: '"account-minute";r=59;t=60' },
        XShouldRetry: { description: 'What the official OpenAI SDKs obey: `false` when another attempt cannot change the answer soon', schema: { const: 'false' } },
      },
    },
  };
}
