import { parseArgs } from 'node:util';

/**
 * Why `npm start`'s arguments cannot be run, or undefined when they can. It takes `--config
 * <file>` alone: an argument it ignored (`--conifg prod.yaml`) would start the gateway on
 * whatever the search finds, or on the defaults, without a word.
 */
export function gatewayArgumentProblem(argv: readonly string[]): string | undefined {
  try {
    parseArgs({ args: [...argv], options: { config: { type: 'string' } }, strict: true, allowPositionals: false });
    return undefined;
  } catch (error) {
    // node:util's first sentence: `Unknown option '--conifg'`, `Unexpected argument 'prod.yaml'`.
    const message = error instanceof Error ? error.message.split('. ')[0].replace(/\.$/, '') : String(error);
    return `${message}: the only option is --config <file>`;
  }
}
