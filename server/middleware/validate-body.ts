import type { RequestHandler } from 'express';
import type { ValidateFunction } from 'ajv';
import { validationErrorFrom } from '../validation/validation-error';

/**
 * Validates `request.body` against a compiled schema and fills in its defaults. An absent body
 * is validated as `{}`, so the answer names the first missing field.
 */
export function validateBody(validate: ValidateFunction): RequestHandler {
  return function validateRequestBody(request, response, next) {
    const body: unknown = request.body === undefined ? {} : request.body;
    if (!validate(body)) throw validationErrorFrom(validate.errors ?? []);
    request.body = body;
    next();
  };
}
