import type { Response } from 'express';
import type { ErrorCode, ErrorDetail, GatewayError } from '../core';
import { sendJson } from './send-json';

/** The spec's success envelope (section 2.1). */
export interface SuccessEnvelope<Data> {
  readonly success: true;
  readonly message: string;
  /** Unix milliseconds. */
  readonly timestamp: number;
  readonly data: Data;
}

/** The same envelope for errors, with the coded error added. */
export interface ErrorEnvelope {
  readonly success: false;
  readonly message: string;
  readonly timestamp: number;
  readonly data: null;
  readonly error: { readonly code: ErrorCode; readonly details: readonly ErrorDetail[] };
}

export function successEnvelope<Data>(message: string, data: Data): SuccessEnvelope<Data> {
  return { success: true, message, timestamp: Date.now(), data };
}

export function errorEnvelope(error: GatewayError): ErrorEnvelope {
  return {
    success: false,
    message: error.message,
    timestamp: Date.now(),
    data: null,
    error: { code: error.code, details: error.details },
  };
}

/**
 * Answers 200 with the success envelope, never to be stored by a cache: it is the caller's own
 * (a key list, usage, a new key) or needs a key, and X-API-Key is no header shared caches heed.
 */
export function sendSuccess<Data>(response: Response, message: string, data: Data): void {
  response.setHeader('Cache-Control', 'no-store');
  sendJson(response, 200, successEnvelope(message, data));
}
