import type { Logger } from 'winston';
import { unexpectedErrorFields } from './unexpected-error';

/**
 * An exception nothing caught (a bug, a plugin's throw in a timer) or a rejection nothing handled
 * (Node raises it as one): Node would print its message unscrubbed and its stack on stderr,
 * outside the JSON log. It is logged as any unexpected error is (name, scrubbed message, one
 * frame), then the process exits 1 as Node's default does: its state is no longer known.
 */
export function logFatalErrors(logger: Logger, exit: (code: number) => never): void {
  process.on('uncaughtException', (error: unknown, origin: string) => {
    logger.error('uncaught exception: exiting', { origin, ...unexpectedErrorFields(error) });
    exit(1);
  });
}
