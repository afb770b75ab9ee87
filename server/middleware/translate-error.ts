import { GatewayError, isGatewayError, type ErrorCode } from '../../core';

/** Client errors that Express and its helpers raise as http-errors (`status`, `expose`). */
const HTTP_STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  404: 'TTS_ERR_NOT_FOUND',
  413: 'TTS_ERR_PAYLOAD_TOO_LARGE',
  416: 'TTS_ERR_RANGE_NOT_SATISFIABLE',
};

interface HttpError {
  readonly status: number;
  readonly message: string;
  readonly expose?: boolean;
}

function isClientHttpError(error: unknown): error is HttpError {
  if (!(error instanceof Error)) return false;
  const status = (error as Error & { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * The GatewayError an error stands for, or undefined for an unexpected one (a bug: answered
 * as a generic 500). A 4xx from Express itself (a malformed `%` escape in a path) stays a 4xx.
 */
export function toGatewayError(error: unknown): GatewayError | undefined {
  if (isGatewayError(error)) return error;
  if (isClientHttpError(error)) {
    const code = HTTP_STATUS_CODES[error.status] ?? 'TTS_ERR_VALIDATION';
    const message = error.expose === false ? 'Bad request' : error.message;
    return new GatewayError(code, message, { details: [{ reason: 'http', httpStatus: error.status }] });
  }
  return undefined;
}
