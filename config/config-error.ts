/**
 * A configuration the gateway cannot start with. The message names the file, the path inside
 * it and what was expected (or the missing environment variable); it never holds a secret.
 */
export class ConfigError extends Error {
  /** Its code in core's catalogue of start-up errors, whose template this message follows. */
  readonly code = 'TTS_CONFIG_INVALID';
  /** The file the problem is in, or undefined for the defaults and the environment. */
  readonly file?: string;
  /** One line per problem, `path: expectation`. */
  readonly problems: readonly string[];

  constructor(summary: string, problems: readonly string[] = [], file?: string) {
    const where = file ? ` in ${file}` : '';
    const body = problems.length > 0 ? `:\n${problems.map((problem) => `  - ${problem}`).join('\n')}` : '';
    super(`${summary}${where}${body}`);
    this.name = 'ConfigError';
    this.file = file;
    this.problems = problems;
  }
}
