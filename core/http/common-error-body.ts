import type { UpstreamErrorReading } from './upstream-error-reading';

/** Parses a JSON body into an object, or undefined (not JSON, or not an object). */
export function parseErrorJson(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A non-empty string, or a number as a string; undefined otherwise. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim().length > 0) return value.trim();
  return typeof value === 'number' ? String(value) : undefined;
}

/**
 * The messages of a FastAPI validation `detail` list (`[{loc: ['body', 'speed'], msg, type}]`),
 * as `body.speed: Input should be ...`, joined; undefined when `detail` is not such a list.
 */
export function validationDetailMessage(detail: unknown): string | undefined {
  if (!Array.isArray(detail)) return undefined;
  const messages = detail.flatMap((entry: unknown) => {
    if (entry === null || typeof entry !== 'object') return [];
    const fields = entry as Record<string, unknown>;
    const message = textOf(fields.msg);
    if (!message) return [];
    const location = Array.isArray(fields.loc) ? fields.loc.filter((part) => typeof part === 'string' || typeof part === 'number').join('.') : '';
    return [location ? `${location}: ${message}` : message];
  });
  return messages.length > 0 ? messages.join('; ') : undefined;
}

/**
 * Reads the error body shapes most HTTP APIs share: `{error: {message, code|type}}`,
 * `{error: "..."}`, `{message, code}`, FastAPI's `{detail: "..."}` and `{detail: [{loc, msg}]}`,
 * or plain text (not an HTML page).
 * Provider-specific fields are read by each plugin's own `mapError`.
 */
export function readCommonErrorBody(text: string): UpstreamErrorReading {
  const body = parseErrorJson(text);
  if (!body) {
    const plain = text.trim();
    return plain.length > 0 && !plain.startsWith('<') ? { providerMessage: plain } : {};
  }
  const nested = body.error !== null && typeof body.error === 'object' ? (body.error as Record<string, unknown>) : undefined;
  const source = nested ?? body;
  return {
    providerMessage: textOf(source.message) ?? textOf(body.error) ?? textOf(body.detail) ?? validationDetailMessage(body.detail),
    providerCode: textOf(source.code) ?? textOf(source.type) ?? (Array.isArray(body.detail) ? textOf((body.detail[0] as { type?: unknown } | undefined)?.type) : undefined),
  };
}
