/**
 * Counts the WebAssembly memories of this thread. A memory grows with the largest input its
 * module ever handled and never shrinks, so it is the part of a worker that does not come back
 * by itself. The meter sees each memory as it is made (by JavaScript, as Emscripten's glue makes
 * them, or by an instance that exports its own) and holds them weakly, so a module that is let
 * go stops counting once collected. (A module compiled to JavaScript (wasm2js) keeps its heap in
 * a plain ArrayBuffer the meter cannot see: its worker reports that heap itself.)
 */

/** The parts of the WebAssembly API used here (the project compiles without the DOM typings). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
type Constructor = new (...args: never[]) => object;
type Instantiate = (...args: unknown[]) => Promise<WasmInstance | { readonly instance: WasmInstance }>;
interface WasmApi {
  Memory: Constructor;
  Instance: Constructor;
  instantiate?: Instantiate;
  instantiateStreaming?: Instantiate;
}

const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
/** The real constructors, for `instanceof` once the globals are wrapped. */
const OriginalMemory = wasm.Memory;
const OriginalInstance = wasm.Instance;
const memories = new Set<WeakRef<WasmMemory>>();
let installed = false;

function track(value: unknown): void {
  if (value instanceof OriginalMemory) memories.add(new WeakRef(value as unknown as WasmMemory));
}

function trackExports(instance: WasmInstance): void {
  for (const value of Object.values(instance.exports)) track(value);
}

/** An instance as `instantiate` answers it: alone (from a module) or with its module (from bytes). */
function instanceOf(result: WasmInstance | { readonly instance: WasmInstance }): WasmInstance {
  return result instanceof OriginalInstance ? (result as WasmInstance) : (result as { readonly instance: WasmInstance }).instance;
}

function counting<Target extends Constructor>(target: Target, seen: (made: object) => void): Target {
  return new Proxy(target, {
    construct(original, args, newTarget) {
      const made = Reflect.construct(original, args, newTarget) as object;
      seen(made);
      return made;
    },
  });
}

/** Wraps the WebAssembly constructors of this thread; call it before any module is loaded. Idempotent. */
export function installWasmMemoryMeter(): void {
  if (installed) return;
  installed = true;
  wasm.Memory = counting(OriginalMemory, track);
  wasm.Instance = counting(OriginalInstance, (made) => trackExports(made as WasmInstance));
  for (const name of ['instantiate', 'instantiateStreaming'] as const) {
    const original = wasm[name];
    if (!original) continue;
    wasm[name] = async function instantiateAndTrack(this: unknown, ...args: unknown[]) {
      const result = await original.apply(this, args);
      trackExports(instanceOf(result));
      return result;
    };
  }
}

/** Bytes of the live WebAssembly memories of this thread. */
export function wasmMemoryBytes(): number {
  let total = 0;
  for (const reference of memories) {
    const memory = reference.deref();
    if (memory) total += memory.buffer.byteLength;
    else memories.delete(reference);
  }
  return total;
}
