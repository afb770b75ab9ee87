import type { SchemaObject } from 'ajv';
import type { ErrorCode } from '../../core';

/**
 * One HTTP route as data. `server/api/api-routes.ts` lists every route in this shape; the app
 * registers them from that list (`register-routes.ts`) and the OpenAPI document is generated
 * from the same list (`server/openapi/`), so the two cannot drift apart.
 */
export interface RouteDescription {
  readonly method: 'get' | 'post' | 'delete';
  /** Express syntax: `/api/v1/tools/voices/:model`. Every `:name` needs a path parameter below. */
  readonly path: string;
  /** Groups operations in the docs: `Accounts and keys`, `Synthesis`, ... */
  readonly tag: string;
  /** One line; the title of the operation in the docs. */
  readonly summary: string;
  /** Markdown, for the docs page. */
  readonly description?: string;
  readonly security: RouteSecurity;
  /** Which error body the route answers with: the spec's envelope or OpenAI's `{error: {...}}`. */
  readonly errorFormat: ErrorFormat;
  readonly parameters?: readonly ParameterDescription[];
  /** A JSON body, validated with ajv against `schema` before the handler runs (defaults filled in). */
  readonly requestBody?: RequestBodyDescription;
  /** Answers other than errors (200, 206, 304, ...). */
  readonly responses: readonly ResponseDescription[];
  /**
   * The coded errors the route itself can answer. Those that follow from the description are
   * added by the generator: KEY_CHECK_ERRORS for `key`, 400 and 413 with a body, 500 everywhere.
   */
  readonly errors?: readonly ErrorCode[];
  /** Express answers HEAD on a GET route; set to document it. */
  readonly documentHead?: boolean;
  /**
   * Counts against `limits:` (server/middleware/synthesis-limits.ts): when limits apply, its
   * answers from the limit check on (the 200, the 429, a later failure) carry `RateLimit-Policy` and `RateLimit`.
   */
  readonly limited?: boolean;
}

/**
 * Who may call. `key`: a live API key, as `X-API-Key` or `Authorization: Bearer`. `public`:
 * anybody. `download`: anybody holding the link, plus a key when `storage.downloadRequiresKey`.
 */
export type RouteSecurity = 'key' | 'public' | 'download';

/**
 * What the key check answers on every keyed route, before the route's own work: 401 for a key
 * missing, unknown, revoked or expired, and 503 when a key not yet known is looked up in an
 * account database that does not answer in time (PostgreSQL's statement limit, a database out of
 * reach).
 */
export const KEY_CHECK_ERRORS: readonly ErrorCode[] = ['TTS_ERR_UNAUTHORIZED', 'TTS_ERR_UNAVAILABLE'];

/** `envelope`: `{success: false, message, timestamp, data: null, error: {code, details}}`; `openai`: `{error: {message, type, param, code}}`. */
export type ErrorFormat = 'envelope' | 'openai';

export interface ParameterDescription {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly description: string;
  /** Path parameters are always required. */
  readonly required?: boolean;
  readonly schema: SchemaObject;
  readonly example?: unknown;
}

export interface RequestBodyDescription {
  /** The ajv schema the route validates with (server/validation/request-schemas.ts). */
  readonly schema: SchemaObject;
  /** A body the route accepts; a test sends it. */
  readonly example: unknown;
  readonly description?: string;
}

export interface ResponseDescription {
  readonly status: number;
  readonly description: string;
  /** Absent for answers without a body (304, HEAD). */
  readonly content?: readonly ContentDescription[];
  /** Sent with every answer of this status (documented as required). */
  readonly headers?: Readonly<Record<string, HeaderDescription>>;
  /** Sent with some answers only: a result cache in front, a model that ignores instructions. */
  readonly optionalHeaders?: Readonly<Record<string, HeaderDescription>>;
}

export interface ContentDescription {
  /** `application/json`, `audio/mpeg`, `text/event-stream`, ... */
  readonly mediaType: string;
  readonly schema: SchemaObject;
  readonly example?: unknown;
}

export interface HeaderDescription {
  readonly description: string;
  readonly schema: SchemaObject;
}
