import libFlacFactory from 'libflacjs';

export type FlacLibrary = libFlacFactory.Flac;

let library: Promise<FlacLibrary> | undefined;

/**
 * Loads libFLAC (libflac.js) once per thread. Its asm.js build is used because the package's
 * WebAssembly build tries to fetch() its .wasm by file path, which fails on Node.
 */
export function loadFlac(): Promise<FlacLibrary> {
  library ??= new Promise<FlacLibrary>((resolve) => {
    const flac = libFlacFactory();
    if (flac.isReady()) resolve(flac);
    else flac.on('ready', () => resolve(flac));
  });
  return library;
}
