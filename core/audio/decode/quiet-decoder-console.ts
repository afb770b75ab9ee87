/**
 * The lines mpg123-decoder and opus-decoder print with console.error for each frame they refuse
 * (dozens for one bad Ogg Opus answer). Their builds take no print/printErr option: the lines come
 * from their JavaScript, and the same facts come back in each decode's `errors`, which the gateway
 * turns into the answer's 502 and logs through its own logger. Only these lines are dropped.
 */
const DECODER_LINES = [/^mpg123-decoder: -?\d+ /, /^libopus -\d+ /];

let installed = false;

/** Drops the decoders' own lines from console.error in this thread (each audio worker loads the decoders itself). */
export function quietDecoderConsole(): void {
  if (installed) return;
  installed = true;
  const print = console.error;
  console.error = (...args: unknown[]): void => {
    const [first] = args;
    if (args.length === 1 && typeof first === 'string' && DECODER_LINES.some((line) => line.test(first))) return;
    print.apply(console, args);
  };
}
