import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every gateway key starts with this, so that secret scanners and people can recognise one. */
export const API_KEY_PREFIX = 'ttsg_';

/** 32 random bytes = 256 bits, written as 43 base64url characters. */
const RANDOM_BYTES = 32;
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;
const API_KEY_PATTERN = /^ttsg_[A-Za-z0-9_-]{43}$/;

/** A freshly minted key: the value is shown once; only the hash and display prefix are stored. */
export interface MintedApiKey {
  readonly value: string;
  readonly hash: string;
  readonly prefix: string;
}

export function mintApiKey(): MintedApiKey {
  const value = API_KEY_PREFIX + randomBytes(RANDOM_BYTES).toString('base64url');
  return { value, hash: hashApiKey(value), prefix: value.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/**
 * Hex SHA-256 of the key: a key has enough entropy that a slow hash adds nothing. The one-shot
 * `hash` makes no Hash object: a third of the cost, paid on every keyed request.
 */
export function hashApiKey(value: string): string {
  return hash('sha256', value, 'hex');
}

/** Cheap shape check before any database lookup. */
export function looksLikeApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** Constant-time comparison of two hex hashes. */
export function hashesEqual(left: string, right: string): boolean {
  const leftBytes = Buffer.from(left, 'hex');
  const rightBytes = Buffer.from(right, 'hex');
  return leftBytes.length === rightBytes.length && timingSafeEqual(leftBytes, rightBytes);
}
