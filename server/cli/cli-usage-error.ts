/** A command line the CLI cannot run: one line saying what is wrong, one saying where help is. */
export class CliUsageError extends Error {
  constructor(
    message: string,
    /** The help to point at: `keys`, `accounts`, ... or undefined for the main help. */
    readonly topic?: string,
  ) {
    super(message);
    this.name = 'CliUsageError';
  }
}
