import { ERROR_CATALOGUE, type ErrorCode } from './error-codes';

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
  readonly cause?: unknown;
}

/**
 * The gateway's one error type. Its message is safe to show a client: it never holds a key,
 * a password, the synthesized text or a stack trace.
 */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details: readonly ErrorDetail[];
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.retryable = ERROR_CATALOGUE[code].retryable;
    this.details = options.details ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isGatewayError(error: unknown): error is GatewayError {
  return error instanceof GatewayError;
}
