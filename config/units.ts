/**
 * Human-friendly units in the config file: durations (`30s`, `10m`, `24h`) and byte sizes
 * (`256kb`, `1mb`). A bare number (or numeric string) is already milliseconds or bytes.
 */

const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i;
const BYTE_SIZE = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i;

const MILLISECONDS_PER_UNIT: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

// Powers of 1024, as Express's body parser reads `256kb`.
const BYTES_PER_UNIT: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
};

function parseWithUnits(value: string | number, pattern: RegExp, units: Readonly<Record<string, number>>, defaultUnit: string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
  const match = pattern.exec(value);
  if (!match) return undefined;
  const unit = (match[2] ?? defaultUnit).toLowerCase();
  return Math.round(Number(match[1]) * units[unit]);
}

/** `24h` -> 86400000; a number is milliseconds. Undefined when the text is not a duration. */
export function parseDuration(value: string | number): number | undefined {
  return parseWithUnits(value, DURATION, MILLISECONDS_PER_UNIT, 'ms');
}

/** `256kb` -> 262144; a number is bytes. Undefined when the text is not a size. */
export function parseByteSize(value: string | number): number | undefined {
  return parseWithUnits(value, BYTE_SIZE, BYTES_PER_UNIT, 'b');
}

export function isDuration(value: string): boolean {
  return DURATION.test(value);
}

export function isByteSize(value: string): boolean {
  return BYTE_SIZE.test(value);
}
