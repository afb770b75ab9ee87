import { ERROR_CATALOGUE, type ErrorCode } from './error-codes';
import { formatErrorMessage, type ErrorParams } from './error-message';

/** One detail of an error: the field or upstream fact, and why. */
export interface ErrorDetail {
  readonly field?: string;
  readonly reason: string;
  readonly [key: string]: unknown;
}

export interface GatewayErrorOptions {
  readonly details?: readonly ErrorDetail[];
  /** Seconds a client should wait before retrying (429, 503). */
  readonly retryAfterSeconds?: number;
  /**
   * Whether another attempt can help, when the upstream said so itself (OpenAI's
   * `x-should-retry`): overrides the catalogue's word for the code, as the provider knows better.
   */
  readonly retryable?: boolean;
  /** Facts for the operator's log only, never sent to a client (an upstream's own error text). */
  readonly logContext?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

/**
 * The brand every gateway error carries, registered globally (`Symbol.for`): a plugin that
 * bundles its own copy of core still throws errors this gateway recognizes, where `instanceof`
 * against another copy's class would turn each into a 500.
 */
export const GATEWAY_ERROR_MARK = Symbol.for('tts-gateway.error');

/**
 * The gateway's one error type. Its message is safe to show a client: it never holds a key,
 * a password, the synthesized text or a stack trace. Prefer `gatewayError(code, params)`, which
 * writes the message from the code's one template in the catalogue.
 */
export class GatewayError extends Error {
  readonly [GATEWAY_ERROR_MARK] = true;
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details: readonly ErrorDetail[];
  readonly retryAfterSeconds?: number;
  /** The upstream's own word on retrying (see GatewayErrorOptions.retryable), when it gave one. */
  readonly retryableStated?: boolean;
  /** Logged with the error, never rendered into an answer. */
  readonly logContext?: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: GatewayErrorOptions = {}) {
    const { status, retryable } = ERROR_CATALOGUE[code];
    // A refusal (4xx) is an answer, not a fault, and its stack is never logged or shown: V8's
    // capture of one was a tenth of a 404's CPU. Server faults (5xx) keep theirs for debugging.
    const stackTraceLimit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'GatewayError';
    this.code = code;
    this.status = status;
    this.retryable = options.retryable ?? retryable;
    if (options.retryable !== undefined) this.retryableStated = options.retryable;
    this.details = options.details ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.logContext !== undefined) this.logContext = options.logContext;
  }
}

/** A coded error whose message is the code's catalogue template filled with `params`. */
export function gatewayError(code: ErrorCode, params: ErrorParams, options: GatewayErrorOptions = {}): GatewayError {
  return new GatewayError(code, formatErrorMessage(ERROR_CATALOGUE[code].template, params), options);
}

/**
 * Whether a value is a gateway error, from this copy of core or another: it carries the global
 * brand and a code of the catalogue.
 */
export function isGatewayError(error: unknown): error is GatewayError {
  if (error === null || typeof error !== 'object') return false;
  const candidate = error as { [GATEWAY_ERROR_MARK]?: unknown; code?: unknown };
  return candidate[GATEWAY_ERROR_MARK] === true && typeof candidate.code === 'string' && candidate.code in ERROR_CATALOGUE;
}
