/**
 * Equal-power (cos/sin) crossfade of the last `length` samples of `from` into the first
 * `length` of `to`, written over `output` at `offset`. Shared by whole-file joins and streams,
 * so both make the same seam.
 */
export function crossfadeInto(output: Float32Array, offset: number, from: Float32Array, to: Float32Array, length: number): void {
  const fromStart = from.length - length;
  for (let index = 0; index < length; index += 1) {
    const angle = ((index + 0.5) / length) * (Math.PI / 2);
    output[offset + index] = from[fromStart + index] * Math.cos(angle) + to[index] * Math.sin(angle);
  }
}
