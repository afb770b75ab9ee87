import { concatSamples } from '../concat';
import { crossfadeInto } from './crossfade';

/**
 * Joins answers that arrive in pieces with the same seam as joinPcm: the last samples of each
 * answer are held back until the next answer's head (or the end) decides how they are faded.
 * Everything before the held tail is final and is released at once.
 */
export class SeamJoiner {
  /** Joined samples not yet released; only its last `fadeLength` may still change. */
  private pending: Float32Array = new Float32Array(0);
  /** Samples of the current answer so far (a seam fades over at most this many). */
  private answerLength = 0;
  private started = false;
  /** At an open seam: the previous answer's tail and the head of the new one collected so far. */
  private seam?: { readonly tail: Float32Array; head: Float32Array };

  constructor(private readonly fadeLength: number) {}

  /** Marks the start of the next answer: the first call only starts; later ones open a seam. */
  startAnswer(): void {
    if (!this.started) {
      this.started = true;
      return;
    }
    this.closeSeam();
    const tailLength = Math.min(this.fadeLength, this.answerLength, this.pending.length);
    this.seam = { tail: this.pending.slice(this.pending.length - tailLength), head: new Float32Array(0) as Float32Array };
    this.pending = this.pending.slice(0, this.pending.length - tailLength);
    this.answerLength = 0;
  }

  /** Adds samples of the current answer; returns the samples that are final. */
  add(samples: Float32Array): Float32Array {
    this.answerLength += samples.length;
    if (this.seam) {
      this.seam.head = concatSamples([this.seam.head, samples]);
      if (this.seam.head.length >= this.seam.tail.length) this.closeSeam();
    } else {
      this.pending = concatSamples([this.pending, samples]);
    }
    // While a seam is open every pending sample is final; otherwise the tail may still fade.
    const releasable = this.seam ? this.pending.length : Math.max(0, this.pending.length - this.fadeLength);
    return this.release(releasable);
  }

  /** Resolves any open seam and releases everything. */
  end(): Float32Array {
    this.closeSeam();
    return this.release(this.pending.length);
  }

  private closeSeam(): void {
    const seam = this.seam;
    if (!seam) return;
    this.seam = undefined;
    const overlap = Math.min(seam.tail.length, seam.head.length);
    const joined = new Float32Array(seam.tail.length + seam.head.length - overlap);
    joined.set(seam.tail.subarray(0, seam.tail.length - overlap));
    crossfadeInto(joined, seam.tail.length - overlap, seam.tail, seam.head, overlap);
    joined.set(seam.head.subarray(overlap), seam.tail.length);
    this.pending = concatSamples([this.pending, joined]);
  }

  private release(count: number): Float32Array {
    const released = this.pending.slice(0, count);
    this.pending = this.pending.slice(count);
    return released;
  }
}
