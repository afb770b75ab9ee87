import { randomUUID } from 'node:crypto';
import { GatewayError } from '../errors';
import { hasUnprintable } from '../objects/unprintable';
import type { ApiKeyRecord } from './account-store';
import { mintApiKey } from './api-key';
import { summarizeKey, type IssuedApiKey } from './account-views';

const MAX_KEY_NAME_LENGTH = 100;
/** Bounds of a key lifetime asked for at creation, in seconds: a minute to ten years. */
const MIN_KEY_LIFETIME_SECONDS = 60;
const MAX_KEY_LIFETIME_SECONDS = 10 * 366 * 86_400;

/** The key name, trimmed; 400 unless it has 1 to 100 characters, none of them a control character. */
export function checkKeyName(name: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed.length === 0 || [...trimmed].length > MAX_KEY_NAME_LENGTH) {
    throw new GatewayError('TTS_ERR_VALIDATION', `name must be between 1 and ${MAX_KEY_NAME_LENGTH} characters`, {
      details: [{ field: 'name', reason: 'length' }],
    });
  }
  // A name is printed to the operator's terminal by `keys list`, where they could rewrite or hide lines.
  if (hasUnprintable(trimmed)) {
    throw new GatewayError('TTS_ERR_VALIDATION', 'name must not hold control characters (line breaks, escape sequences, direction overrides)', {
      details: [{ field: 'name', reason: 'control_character' }],
    });
  }
  return trimmed;
}

/** 400 unless the lifetime is absent (until revoked) or a whole number of seconds from a minute to ten years. */
export function checkKeyLifetime(expiresInSeconds: number | undefined): void {
  if (expiresInSeconds !== undefined && !(Number.isInteger(expiresInSeconds) && expiresInSeconds >= MIN_KEY_LIFETIME_SECONDS && expiresInSeconds <= MAX_KEY_LIFETIME_SECONDS)) {
    throw new GatewayError('TTS_ERR_VALIDATION', `expiresIn must be a whole number of seconds between ${MIN_KEY_LIFETIME_SECONDS} and ${MAX_KEY_LIFETIME_SECONDS}`, {
      details: [{ field: 'expiresIn', reason: 'range' }],
    });
  }
}

/** A new key of the account: the record to store (its hash only) and what the caller is shown once. */
export function issueApiKey(accountId: string, name: string, expiresAt: number | null, createdAt: number): { record: ApiKeyRecord; issued: IssuedApiKey } {
  const minted = mintApiKey();
  const record: ApiKeyRecord = {
    id: randomUUID(),
    accountId,
    name,
    prefix: minted.prefix,
    keyHash: minted.hash,
    createdAt,
    lastUsedAt: null,
    revokedAt: null,
    expiresAt,
  };
  return { record, issued: { ...summarizeKey(record), apiKey: minted.value } };
}

export function isExpired(key: ApiKeyRecord, now: number): boolean {
  return key.expiresAt != null && key.expiresAt <= now;
}
