import winston from 'winston';
import type { LoggingConfig } from '../config/types';

/** Fields that must never reach a log line at any level: credentials and the user's text. */
const SECRET_FIELDS = new Set(['apikey', 'api_key', 'x-api-key', 'password', 'authorization', 'text', 'input', 'transcript', 'ssml', 'secretaccesskey']);

/** Replaces secret fields anywhere in a log entry's metadata. */
const redact = winston.format((entry) => {
  const scrub = (value: unknown, depth: number): unknown => {
    if (depth > 4 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, SECRET_FIELDS.has(key.toLowerCase()) ? '[redacted]' : scrub(item, depth + 1)]),
    );
  };
  for (const key of Object.keys(entry)) {
    if (SECRET_FIELDS.has(key.toLowerCase())) entry[key] = '[redacted]';
    else entry[key] = scrub(entry[key], 0);
  }
  return entry;
});

/** JSON lines for production, readable lines for development. */
export function createLogger(config: LoggingConfig): winston.Logger {
  const format =
    config.format === 'json'
      ? winston.format.combine(redact(), winston.format.timestamp(), winston.format.json())
      : winston.format.combine(
          redact(),
          winston.format.timestamp({ format: 'HH:mm:ss.SSS' }),
          winston.format.printf(({ timestamp, level, message, ...meta }) => {
            const details = Object.keys(meta).length > 0 ? ` ${JSON.stringify(meta)}` : '';
            return `${String(timestamp)} ${level} ${String(message)}${details}`;
          }),
        );
  return winston.createLogger({ level: config.level, format, transports: [new winston.transports.Console()] });
}
