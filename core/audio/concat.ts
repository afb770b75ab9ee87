/** Joins sample blocks end to end; a single non-empty block is returned as is. */
export function concatSamples(parts: readonly Float32Array[]): Float32Array {
  const filled = parts.filter((part) => part.length > 0);
  if (filled.length === 1) return filled[0];
  const joined = new Float32Array(filled.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of filled) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** Joins byte blocks end to end into a new buffer of its own (safe to transfer). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
