/**
 * eSpeak's voice data: a 24 MB package that its Emscripten build reads whole into every thread
 * that runs an engine. Read once into shared memory instead, every thread uses the same bytes in
 * place, so a second engine costs its heap, not another copy of the data. Held weakly here:
 * once no thread uses it, it is collected, and read again for the next thread.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What each espeak worker thread is given (its workerData). */
export interface EspeakWorkerData {
  readonly voiceData?: SharedArrayBuffer;
}

export class SharedVoiceData {
  private current?: WeakRef<SharedArrayBuffer>;

  constructor(private readonly path: string = voiceDataPath()) {}

  /** The data, read now unless a thread still holds it (a few ms from the page cache, once per quiet spell). */
  get(): SharedArrayBuffer {
    const live = this.current?.deref();
    if (live) return live;
    const data = readShared(this.path);
    this.current = new WeakRef(data);
    return data;
  }
}

/** The package's data file, beside its script. */
export function voiceDataPath(): string {
  return join(dirname(require.resolve('@echogarden/espeak-ng-emscripten')), 'espeak-ng.data');
}

function readShared(path: string): SharedArrayBuffer {
  const descriptor = openSync(path, 'r');
  try {
    const size = fstatSync(descriptor).size;
    const data = new SharedArrayBuffer(size);
    const bytes = new Uint8Array(data);
    for (let offset = 0; offset < size; ) {
      const read = readSync(descriptor, bytes, offset, size - offset, offset);
      if (read === 0) throw new Error(`${path} ended after ${offset} of ${size} bytes`);
      offset += read;
    }
    return data;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The shared data as the package's loader takes it: it checks that it got an ArrayBuffer by
 * constructor name, then only reads the bytes through views, which shared memory serves alike.
 */
export function asPackageBuffer(data: SharedArrayBuffer): ArrayBuffer {
  Object.defineProperty(data, 'constructor', { value: ArrayBuffer });
  return data as unknown as ArrayBuffer;
}
