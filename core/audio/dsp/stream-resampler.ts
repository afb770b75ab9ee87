/**
 * Band-limited sample-rate conversion for audio that arrives in pieces: windowed-sinc
 * interpolation (Kaiser window), keeping only the input samples the filter still needs.
 * (libsamplerate, used for whole files, costs one WebAssembly instance of ~26 MB per converter,
 * too much to keep per open stream.)
 */

/** Zero crossings of the sinc on each side: the filter's reach, in cutoff periods. */
const ZERO_CROSSINGS = 16;
/** Fractional positions tabulated; positions between two are interpolated linearly. */
const PHASES = 256;
/** Kaiser window shape: about 80 dB of stop-band rejection. */
const KAISER_BETA = 8;
/** Cutoff as a fraction of the lower Nyquist frequency, leaving room for the transition band. */
const ROLLOFF = 0.94;

interface FilterTable {
  /** Taps on each side of the centre sample. */
  readonly reach: number;
  /** (PHASES + 1) rows of 2 * reach + 1 coefficients. */
  readonly rows: Float32Array;
}

const tables = new Map<string, FilterTable>();

/** Zeroth-order modified Bessel function of the first kind, by its power series. */
function besselI0(value: number): number {
  let sum = 1;
  let term = 1;
  for (let index = 1; index < 50; index += 1) {
    term *= (value / (2 * index)) ** 2;
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return sum;
}

function filterTable(inputRate: number, outputRate: number): FilterTable {
  const key = `${inputRate}>${outputRate}`;
  const cached = tables.get(key);
  if (cached) return cached;
  const cutoff = Math.min(1, outputRate / inputRate) * ROLLOFF;
  const halfWidth = ZERO_CROSSINGS / cutoff;
  const reach = Math.ceil(halfWidth);
  const width = 2 * reach + 1;
  const rows = new Float32Array((PHASES + 1) * width);
  const normaliser = besselI0(KAISER_BETA);
  for (let phase = 0; phase <= PHASES; phase += 1) {
    const fraction = phase / PHASES;
    let sum = 0;
    for (let tap = 0; tap < width; tap += 1) {
      // Distance from the output instant to input sample (centre - reach + tap).
      const distance = fraction - (tap - reach);
      const relative = distance / halfWidth;
      if (Math.abs(relative) >= 1) continue;
      const argument = Math.PI * cutoff * distance;
      const sinc = argument === 0 ? 1 : Math.sin(argument) / argument;
      const window = besselI0(KAISER_BETA * Math.sqrt(1 - relative * relative)) / normaliser;
      rows[phase * width + tap] = cutoff * sinc * window;
      sum += rows[phase * width + tap];
    }
    // Unity gain at DC for every phase, so a constant stays constant.
    for (let tap = 0; tap < width; tap += 1) rows[phase * width + tap] /= sum;
  }
  const table = { reach, rows };
  tables.set(key, table);
  return table;
}

export class StreamResampler {
  private readonly table: FilterTable;
  /** Input samples from absolute index `bufferStart` on; earlier ones are no longer needed. */
  private buffer = new Float32Array(0);
  private bufferStart = 0;
  private inputCount = 0;
  private outputCount = 0;
  private ended = false;

  constructor(
    readonly inputRate: number,
    readonly outputRate: number,
  ) {
    this.table = filterTable(inputRate, outputRate);
  }

  /** Converts the next input samples; returns the output samples that are complete. */
  write(samples: Float32Array): Float32Array {
    if (this.ended) throw new Error('resampler already ended');
    if (this.inputRate === this.outputRate) return samples;
    const joined = new Float32Array(this.buffer.length + samples.length);
    joined.set(this.buffer);
    joined.set(samples, this.buffer.length);
    this.buffer = joined;
    this.inputCount += samples.length;
    // An output sample is complete once every input sample its filter reaches has arrived.
    return this.produce((centre) => centre + this.table.reach < this.inputCount, Number.POSITIVE_INFINITY);
  }

  /** Treats the rest of the input as silence and returns the last samples: round(in * ratio) in all. */
  end(): Float32Array {
    if (this.ended) return new Float32Array(0);
    this.ended = true;
    if (this.inputRate === this.outputRate) return new Float32Array(0);
    const total = Math.round((this.inputCount * this.outputRate) / this.inputRate);
    const output = this.produce(() => true, total);
    this.buffer = new Float32Array(0);
    return output;
  }

  private produce(ready: (centre: number) => boolean, limit: number): Float32Array {
    const { reach, rows } = this.table;
    const width = 2 * reach + 1;
    const bound = Number.isFinite(limit) ? limit : Math.ceil((this.inputCount * this.outputRate) / this.inputRate) + 1;
    const produced = new Float32Array(Math.max(0, bound - this.outputCount));
    let count = 0;
    for (;;) {
      if (this.outputCount >= limit || count >= produced.length) break;
      // Exact position of the output instant in input samples: integer part and fraction.
      const position = this.outputCount * this.inputRate;
      const centre = Math.floor(position / this.outputRate);
      if (!ready(centre)) break;
      const phaseExact = ((position - centre * this.outputRate) / this.outputRate) * PHASES;
      const phase = Math.floor(phaseExact);
      const blend = phaseExact - phase;
      const low = phase * width;
      const high = low + width;
      let value = 0;
      const first = centre - reach - this.bufferStart;
      for (let tap = 0; tap < width; tap += 1) {
        const index = first + tap;
        if (index < 0 || index >= this.buffer.length) continue;
        const coefficient = rows[low + tap] + (rows[high + tap] - rows[low + tap]) * blend;
        value += this.buffer[index] * coefficient;
      }
      produced[count] = value;
      count += 1;
      this.outputCount += 1;
    }
    this.discardConsumed();
    return count === produced.length ? produced : produced.slice(0, count);
  }

  /** Drops input the next output sample's filter no longer reaches. */
  private discardConsumed(): void {
    const nextCentre = Math.floor((this.outputCount * this.inputRate) / this.outputRate);
    const keepFrom = Math.max(this.bufferStart, nextCentre - this.table.reach);
    const drop = Math.min(this.buffer.length, keepFrom - this.bufferStart);
    if (drop <= 0) return;
    this.buffer = this.buffer.slice(drop);
    this.bufferStart += drop;
  }
}
