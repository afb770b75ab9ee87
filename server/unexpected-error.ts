import { redactSecrets } from '../core';

/** What a log line says about an error nobody expected (a bug, a library's failure). */
export interface UnexpectedErrorFields {
  readonly errorName: string;
  /** Its message, anything key-like removed (a library may quote what it was given). */
  readonly errorMessage: string;
  /** Where it was thrown: one frame, not the stack, which stays out of logs as it does out of answers. */
  readonly thrownAt?: string;
}

/** `at fn (/abs/path/file.js:12:5)` or `at /abs/path/file.js:12:5`: the file and line of a frame. */
const FRAME = /^\s*at (?:.*?\()?(.+?):(\d+):\d+\)?$/;

export function unexpectedErrorFields(error: unknown): UnexpectedErrorFields {
  if (!(error instanceof Error)) return { errorName: typeof error, errorMessage: redactSecrets(String(error)) };
  const frame = error.stack
    ?.split('\n')
    .map((line) => FRAME.exec(line))
    .find((match) => match !== null);
  const errorName = error.name;
  const errorMessage = redactSecrets(error.message);
  return frame ? { errorName, errorMessage, thrownAt: `${projectPath(frame[1])}:${frame[2]}` } : { errorName, errorMessage };
}

/** A path from the project's or a package's root: the machine's folders say nothing the reader needs. */
function projectPath(file: string): string {
  const packages = file.lastIndexOf('/node_modules/');
  if (packages >= 0) return file.slice(packages + 1);
  const built = file.lastIndexOf('/dist/');
  return built >= 0 ? file.slice(built + '/dist/'.length) : file.slice(file.lastIndexOf('/') + 1);
}
