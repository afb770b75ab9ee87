import { GatewayError } from '../errors';
import { hasLoneSurrogate } from '../objects/lone-surrogate';
import { hasUnprintable } from '../objects/unprintable';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const MAX_EMAIL_LENGTH = 254;
const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;

/**
 * The email as accounts store it (trimmed, lower case, composed: an é typed as one code point or
 * as e and an accent is one address); '' for anything but a string. Registration, login, the CLI
 * and the login throttle all fold with this, so that no form of an address is a new one.
 */
export function foldEmail(email: string): string {
  return typeof email === 'string' ? email.trim().toLowerCase().normalize('NFC') : '';
}

/**
 * The decomposed form of a folded email, when it differs: versions before composition stored an
 * address as it was typed, and a decomposed é is how some systems type it.
 */
export function earlierStoredForm(folded: string): string | undefined {
  const decomposed = folded.normalize('NFD');
  return decomposed === folded ? undefined : decomposed;
}

/**
 * Whether any account may have this folded email, so that the store may be asked for it. No
 * account can have a NUL: PostgreSQL refuses one in text, even in a question (SQLite took it).
 * Nor a lone surrogate: PostgreSQL is sent U+FFFD in its place, so another address's account
 * would answer (SQLite kept the surrogate's bytes). Registration refuses both now.
 */
export function mayBeStoredEmail(folded: string): boolean {
  return !folded.includes('\u0000') && !hasLoneSurrogate(folded);
}

/**
 * The folded email; 400 unless it is valid Unicode text (no lone surrogate, as for passwords),
 * looks like an address and holds no control character or direction override (a NUL no
 * PostgreSQL column takes; an escape sequence the CLI would print).
 */
export function normalizeEmail(email: string): string {
  const normalized = foldEmail(email);
  if (hasLoneSurrogate(normalized)) {
    throw new GatewayError('TTS_ERR_VALIDATION', 'email must be valid Unicode text (it holds a lone surrogate)', { details: [{ field: 'email', reason: 'invalid_unicode' }] });
  }
  if (normalized.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(normalized) || hasUnprintable(normalized)) {
    throw new GatewayError('TTS_ERR_VALIDATION', 'email must be a valid email address', { details: [{ field: 'email', reason: 'format' }] });
  }
  return normalized;
}

/**
 * 400 for a password that is no valid Unicode text: hashing would turn each lone surrogate into
 * U+FFFD, so passwords that differ only there would be equal.
 */
export function checkWellFormedPassword(password: string): void {
  if (hasLoneSurrogate(password)) {
    throw new GatewayError('TTS_ERR_VALIDATION', 'password must be valid Unicode text (it holds a lone surrogate)', {
      details: [{ field: 'password', reason: 'invalid_unicode' }],
    });
  }
}

/** 400 for a password a new account may not have: ill-formed, too short or too long. */
export function checkPassword(password: string): void {
  if (typeof password === 'string') checkWellFormedPassword(password);
  const length = typeof password === 'string' ? [...password].length : 0;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw new GatewayError('TTS_ERR_VALIDATION', `password must be between ${MIN_PASSWORD_LENGTH} and ${MAX_PASSWORD_LENGTH} characters`, {
      details: [{ field: 'password', reason: 'length' }],
    });
  }
}
