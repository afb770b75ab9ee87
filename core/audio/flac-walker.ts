import { FLAC_HEADER_MAX, NEED_MORE, NOT_A_HEADER, readFlacFrameHeader, type FlacFrameFacts } from './flac-frame-header';

/** `fLaC`, then STREAMINFO's block header and its 34 bytes. */
const STREAMINFO_END = 42;
const METADATA_HEADER = 4;
const LAST_BLOCK = 0x80;
const SYNC = 0xff;

/** Why a FLAC answer is not whole. */
export const FLAC_CUT_SHORT = 'the flac audio ends before the samples its STREAMINFO counts (cut short?)';

const enum Stage {
  StreamInfo,
  BlockHeader,
  BlockBody,
  Frames,
  Lost,
}

/**
 * Follows a FLAC answer as its bytes arrive, to count its seconds and tell whether it stopped
 * before its STREAMINFO's total (WavWalker's counterpart for FLAC). A FLAC frame says no length,
 * and its header most often leaves the rate to STREAMINFO: STREAMINFO gives the rate, and each
 * frame header (found by its sync and CRC-8, and numbered as the next one must be, so bytes
 * inside a frame that look like a header are not counted) adds its block size. STREAMINFO's
 * total, when the encoder wrote one, bounds the count.
 */
export class FlacWalker {
  /** STREAMINFO as it arrives, then the start of a metadata block or frame header cut by a chunk's end. */
  private readonly held = new Uint8Array(STREAMINFO_END);
  private heldBytes = 0;
  private stage = Stage.StreamInfo;
  private lastBlock = false;
  /** Bytes of a metadata block (a picture, padding) still to pass. */
  private skip = 0;
  private rate = 0;
  private total = 0;
  private samples = 0;
  private frames = 0;
  private readonly facts: FlacFrameFacts = { blockSize: 0, number: 0, variable: false };
  /** Where the last scan stopped (a field, not a result object: this runs on every chunk). */
  private stoppedAt = 0;

  /** Seconds of audio in the frames whose headers came so far; 0 before STREAMINFO is read. */
  get seconds(): number {
    if (this.rate === 0) return 0;
    return (this.total > 0 ? Math.min(this.samples, this.total) : this.samples) / this.rate;
  }

  /**
   * True when the frames so far hold fewer samples than STREAMINFO's total (a total of 0,
   * "unknown", gives no verdict). A frame has no length to follow: a cut inside the last one
   * cannot be seen.
   */
  get cutShort(): boolean {
    return this.total > 0 && this.samples < this.total;
  }

  push(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length && this.stage < Stage.Frames) offset = this.metadata(chunk, offset);
    if (this.stage === Stage.Frames && offset < chunk.length) this.walkFrames(chunk, offset);
  }

  /** Reads STREAMINFO and passes the other metadata blocks; returns where it stopped in `chunk`. */
  private metadata(chunk: Uint8Array, offset: number): number {
    if (this.stage === Stage.BlockBody) {
      const passed = Math.min(this.skip, chunk.length - offset);
      this.skip -= passed;
      if (this.skip === 0) this.stage = this.lastBlock ? Stage.Frames : Stage.BlockHeader;
      return offset + passed;
    }
    const wanted = this.stage === Stage.StreamInfo ? STREAMINFO_END : METADATA_HEADER;
    const taken = Math.min(wanted - this.heldBytes, chunk.length - offset);
    this.held.set(chunk.subarray(offset, offset + taken), this.heldBytes);
    this.heldBytes += taken;
    if (this.heldBytes < wanted) return offset + taken;
    this.heldBytes = 0;
    const held = this.held;
    if (this.stage === Stage.StreamInfo) {
      if (held[0] !== 0x66 || held[1] !== 0x4c || held[2] !== 0x61 || held[3] !== 0x43 || (held[4] & 0x7f) !== 0) {
        this.stage = Stage.Lost;
        return chunk.length;
      }
      this.lastBlock = (held[4] & LAST_BLOCK) !== 0;
      this.rate = (held[18] << 12) | (held[19] << 4) | (held[20] >> 4);
      this.total = (held[21] & 0x0f) * 2 ** 32 + ((held[22] << 24) >>> 0) + ((held[23] << 16) | (held[24] << 8) | held[25]);
      this.stage = this.lastBlock ? Stage.Frames : Stage.BlockHeader;
    } else {
      this.lastBlock = (held[0] & LAST_BLOCK) !== 0;
      this.skip = (held[1] << 16) | (held[2] << 8) | held[3];
      this.stage = this.skip > 0 ? Stage.BlockBody : this.lastBlock ? Stage.Frames : Stage.BlockHeader;
    }
    return offset + taken;
  }

  /** Counts the frame headers in `chunk` from `offset`, after the start of one held from the chunk before. */
  private walkFrames(chunk: Uint8Array, offset: number): void {
    let from = offset;
    if (this.heldBytes > 0) {
      // The held start and the chunk's first bytes, side by side in `held` (no copy of the chunk).
      const carried = this.heldBytes;
      const joined = Math.min(FLAC_HEADER_MAX, chunk.length - offset);
      for (let index = 0; index < joined; index += 1) this.held[carried + index] = chunk[offset + index];
      this.heldBytes = 0;
      if (this.scan(this.held, 0, carried + joined, carried)) {
        // The whole chunk is in `held` and still ends inside a header.
        this.hold(this.held, this.stoppedAt, carried + joined);
        return;
      }
      from = offset + Math.max(0, this.stoppedAt - carried);
    }
    if (this.scan(chunk, from, chunk.length, chunk.length)) this.hold(chunk, this.stoppedAt, chunk.length);
  }

  /**
   * Counts the headers in `bytes[from..end]` that start before `startsBefore`; `stoppedAt` is
   * where it stopped. True when it stopped at the start of a header the bytes end inside.
   */
  private scan(bytes: Uint8Array, from: number, end: number, startsBefore: number): boolean {
    let at = from;
    for (;;) {
      const sync = bytes.indexOf(SYNC, at);
      if (sync < 0 || sync >= startsBefore || sync >= end) {
        this.stoppedAt = Math.max(at, Math.min(startsBefore, end));
        return false;
      }
      const read = readFlacFrameHeader(bytes, sync, end, this.facts);
      if (read === NEED_MORE) {
        this.stoppedAt = sync;
        return true;
      }
      if (read !== NOT_A_HEADER && this.isNext()) {
        this.samples += this.facts.blockSize;
        this.frames += 1;
        at = sync + read;
      } else {
        at = sync + 1;
      }
    }
  }

  /** The header's number is the next frame's (or its first sample's): anything else is bytes inside a frame. */
  private isNext(): boolean {
    return this.facts.number === (this.facts.variable ? this.samples : this.frames);
  }

  /** Keeps the start of a header (under FLAC_HEADER_MAX bytes) for the next chunk. */
  private hold(bytes: Uint8Array, from: number, end: number): void {
    for (let index = from; index < end; index += 1) this.held[index - from] = bytes[index];
    this.heldBytes = end - from;
  }
}
