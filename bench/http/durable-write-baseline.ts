/**
 * What the disk itself charges for one durable save, measured in the bench's own process: the
 * kernel work of creating a file, writing the audio, flushing it (fdatasync) and flushing its
 * folder (fsync), synchronously, with no gateway around it. tts-sync includes one such save, so
 * its CPU per request is read against this figure of the same run.
 */
import { closeSync, fdatasyncSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface DurableWriteCost {
  /** CPU (user + system) of this process per save, in milliseconds. */
  readonly cpuMs: number;
  /** Median wall time of one save, in milliseconds. */
  readonly p50Ms: number;
}

const SAVES = 200;

export function measureDurableWrite(parentFolder: string, bytes: Uint8Array): DurableWriteCost {
  const folder = mkdtempSync(join(parentFolder, 'durable-write-'));
  const folderDescriptor = openSync(folder, 'r');
  const times: number[] = [];
  try {
    const before = process.cpuUsage();
    for (let save = 0; save < SAVES; save += 1) {
      const started = process.hrtime.bigint();
      const descriptor = openSync(join(folder, `save-${save}`), 'wx', 0o600);
      try {
        for (let offset = 0; offset < bytes.byteLength; ) offset += writeSync(descriptor, bytes, offset, bytes.byteLength - offset);
        fdatasyncSync(descriptor);
      } finally {
        closeSync(descriptor);
      }
      fsyncSync(folderDescriptor);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const used = process.cpuUsage(before);
    times.sort((left, right) => left - right);
    return { cpuMs: (used.user + used.system) / 1000 / SAVES, p50Ms: times[Math.floor(SAVES / 2)] };
  } finally {
    closeSync(folderDescriptor);
    rmSync(folder, { recursive: true, force: true });
  }
}
