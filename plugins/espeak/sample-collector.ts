/**
 * Gathers the engine's audio blocks of one synthesis in a buffer kept for the next, so each
 * chunk's samples are copied once into a buffer of their own for the answer, instead of once
 * per block and then again to join the blocks. A buffer a long text grew past `keepSamples` is
 * let go once that text is done.
 */
export class SampleCollector {
  private buffer = new Int16Array(0);
  private length = 0;

  constructor(private readonly keepSamples: number) {}

  /** Samples gathered since the last `take`. */
  get collected(): number {
    return this.length;
  }

  append(block: Int16Array): void {
    if (this.length + block.length > this.buffer.length) this.grow(this.length + block.length);
    this.buffer.set(block, this.length);
    this.length += block.length;
  }

  /** The samples gathered, in a buffer of their own; the collector starts again empty. */
  take(): Int16Array<ArrayBuffer> {
    const samples = this.buffer.slice(0, this.length);
    this.length = 0;
    if (this.buffer.length > this.keepSamples) this.buffer = new Int16Array(0);
    return samples;
  }

  private grow(needed: number): void {
    const larger = new Int16Array(Math.max(needed, this.buffer.length * 2, MIN_SAMPLES));
    larger.set(this.buffer.subarray(0, this.length));
    this.buffer = larger;
  }
}

/** A second of 16 kHz audio: the first buffer, grown by doubling from there. */
const MIN_SAMPLES = 16_384;
