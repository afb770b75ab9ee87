import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost parameters; the defaults follow the common interactive-login recommendation. */
export interface ScryptParameters {
  readonly cost: number;
  readonly blockSize: number;
  readonly parallelization: number;
}

export const DEFAULT_SCRYPT_PARAMETERS: ScryptParameters = { cost: 16_384, blockSize: 8, parallelization: 1 };

const SALT_BYTES = 16;
const HASH_BYTES = 32;

function deriveKey(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = {
    N: parameters.cost,
    r: parameters.blockSize,
    p: parameters.parallelization,
    // scrypt needs 128 * N * r bytes; leave headroom above Node's 32 MiB default.
    maxmem: 256 * parameters.cost * parameters.blockSize + 1024 * 1024,
  };
  return new Promise((resolvePromise, reject) => {
    scrypt(password.normalize('NFC'), salt, HASH_BYTES, options, (error, key) => (error ? reject(error) : resolvePromise(key)));
  });
}

/** Hashes a password as `scrypt$N$r$p$<salt>$<hash>` (base64url), with a fresh random salt. */
export async function hashPassword(password: string, parameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await deriveKey(password, salt, parameters);
  const { cost, blockSize, parallelization } = parameters;
  return ['scrypt', cost, blockSize, parallelization, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Checks a password against a stored hash in constant time; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [cost, blockSize, parallelization] = parts.slice(1, 4).map(Number);
  if (![cost, blockSize, parallelization].every((value) => Number.isInteger(value) && value > 0)) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (expected.length === 0) return false;
  const actual = await deriveKey(password, salt, { cost, blockSize, parallelization });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
