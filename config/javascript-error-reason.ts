import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

/**
 * A `.js`, `.cjs` or `.mjs` config that fails to load, as one line that quotes nothing of the
 * file. V8 names the token it stopped at (`Unexpected identifier 'Secret'`) and the name it
 * could not find (`sk is not defined`, from `token: sk-live-…` written unquoted): the file's text.
 */

export const JAVASCRIPT_CONFIG = /\.[cm]?js$/;

// Words of the language, not of the file: `Unexpected token 'export'` keeps its token.
const RESERVED_WORDS = new Set(
  'await async break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof let new null of return static super switch this throw true try typeof var void while with yield'.split(' '),
);
const QUOTED = /\s*'([^']*)'/g;
// `Invalid regular expression: /(sk-live/: Unterminated group`: the pattern is the file's.
const REGULAR_EXPRESSION = /: \/.*\/[a-z]*:/;
const NOT_DEFINED = /^(\S+) is not defined/;
// What CommonJS has and an ES module has not: `module.exports` in an `.mjs`.
const COMMONJS_NAMES = new Set(['module', 'exports', 'require', '__dirname', '__filename']);

function withoutFileText(message: string): string {
  const reduced = message.replace(QUOTED, (quoted, text: string) => (/^[^\w$]{1,3}$/.test(text) || RESERVED_WORDS.has(text) ? quoted : ''));
  return reduced.replace(REGULAR_EXPRESSION, ':');
}

function where(line: number, column?: number): string {
  return column === undefined ? `line ${line}` : `line ${line}, column ${column}`;
}

/**
 * Where the syntax error is, from `node --check` (which compiles and runs nothing): its report
 * starts `<file>:<line>`, then the line of the file and a `^` under the token. Read for those
 * two numbers and V8's message only. An ES module's SyntaxError carries no position, and
 * cosmiconfig's require() retry of an `.mjs` replaces it ("Cannot require() ES Module").
 */
function syntaxError(file: string): string | undefined {
  const env = { ...process.env, NODE_OPTIONS: '' }; // preloads have nothing to do with a syntax check
  const checked = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8', env, timeout: 10_000, stdio: ['ignore', 'ignore', 'pipe'] });
  if (checked.status === 0 || typeof checked.stderr !== 'string') return undefined;
  const lines = stripVTControlCharacters(checked.stderr).split('\n');
  const message = lines.map((line) => /^SyntaxError: (.*)$/.exec(line)?.[1]).find((found) => found !== undefined);
  if (message === undefined) return undefined;
  const lineNumber = lines.map((line) => /:(\d+)$/.exec(line)?.[1]).find((found) => found !== undefined);
  const caret = lines.find((line) => /^\s*\^+\s*$/.test(line));
  const location = lineNumber === undefined ? '' : ` (${where(Number(lineNumber), caret === undefined ? undefined : caret.indexOf('^') + 1)})`;
  return `SyntaxError: ${withoutFileText(message)}${location}`;
}

/** The line and column of the file's own frame in a stack (a URL for an ES module, a path for CommonJS). */
function stackLocation(stack: string, file: string): string {
  let real = file;
  try {
    real = realpathSync(file);
  } catch {
    // the file as named
  }
  const names = [file, real, pathToFileURL(file).href, pathToFileURL(real).href];
  for (const line of stack.split('\n')) {
    for (const name of names) {
      const at = line.indexOf(`${name}:`);
      const numbers = at < 0 ? null : /^:(\d+):(\d+)/.exec(line.slice(at + name.length));
      if (numbers) return ` (${where(Number(numbers[1]), Number(numbers[2]))})`;
    }
  }
  return '';
}

function notDefined(name: string, location: string): string {
  if (COMMONJS_NAMES.has(name)) return `ReferenceError: ${name} is not defined in an ES module${location}: write export default { … }, or name the file .cjs`;
  return `ReferenceError: a name that is not defined${location}: write text values in quotes`;
}

/** `error`: what loading `file` threw (cosmiconfig's, whatever it replaced). */
export function javascriptReason(error: unknown, file: string): string {
  const syntax = syntaxError(file);
  if (syntax !== undefined) return syntax;
  const message = error instanceof Error ? stripVTControlCharacters(error.message) : String(error);
  const name = error instanceof ReferenceError ? NOT_DEFINED.exec(message)?.[1] : undefined;
  if (name !== undefined) return notDefined(name, stackLocation((error as Error).stack ?? '', file));
  // An error the file throws itself (`throw new Error('set SECRET_FILE')`) says what its author wrote.
  return message.split('\n').find((line) => line.trim() !== '') ?? 'unreadable';
}
