/**
 * A config file's syntax error as one line that quotes nothing of the file. Parsers echo the text
 * around the error (JSON.parse about ten characters each side and the file's first forty, js-yaml
 * the name of an alias or a tag), and that text may be a key written unquoted.
 */

// `Expected ',' or '}' after property value in JSON at position 11`: fixed text, then the offset.
const JSON_AT_POSITION = /^(.+?)(?: in JSON)? at position (\d+)/;
// `Unexpected token 's', ..."apiKey": sk-li"... is not valid JSON`: the quoted part is the file's.
const JSON_UNEXPECTED_TOKEN = /^Unexpected token '(.)', (\.\.\.)?"(.*)"(?:\.\.\.)? is not valid JSON/su;
// @babel/code-frame's lines (`> 3 |  "b": 1`, `    |  ^`), which parse-json adds to its message.
const CODE_FRAME_LINE = /^\s*>?\s*\d*\s*\|/;

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/**
 * Where V8's unexpected token is: its message gives no offset, only the text around the token
 * (ten characters each side, `...` where it is cut), which parse-json then strips of line
 * breaks. Found there and checked to be that token, or undefined rather than a wrong line.
 */
function unexpectedTokenPosition(token: string, cutBefore: boolean, around: string, text: string): number | undefined {
  const offsets: number[] = [];
  let flat = '';
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '\n') continue;
    flat += text[index];
    offsets.push(index);
  }
  const start = flat.indexOf(around);
  if (start < 0 || flat.indexOf(around, start + 1) >= 0) return undefined;
  // V8 counts its ten characters in the file as it is, line breaks included.
  const position = cutBefore ? offsets[start] + 10 : offsets[start + around.indexOf(token)];
  return position !== undefined && text[position] === token ? position : undefined;
}

/** `lines`: the parser's message after cosmiconfig's `JSON Error in <file>:`; `text`: the file, to place a position. */
export function jsonReason(lines: readonly string[], text: string | undefined): string {
  // Editors on Windows may write one; JSON.parse reads it as a stray character.
  if (text?.startsWith('\uFEFF')) return 'the file starts with a byte order mark (BOM): save it as UTF-8 without one';
  const message = (lines.find((line) => !CODE_FRAME_LINE.test(line)) ?? '').trim();
  // First: its quoted text is the file's, which might even read "at position 5".
  const unexpected = JSON_UNEXPECTED_TOKEN.exec(message);
  if (unexpected) {
    const position = text === undefined ? undefined : unexpectedTokenPosition(unexpected[1], unexpected[2] !== undefined, unexpected[3], text);
    const where = text === undefined || position === undefined ? '' : ` (${lineAndColumn(text, position)})`;
    // The token is one character: no secret, and it says what to fix (a `'`, a `]` after a comma).
    return `Unexpected token '${unexpected[1]}'${where}`;
  }
  const located = JSON_AT_POSITION.exec(message);
  if (located) {
    const where = text === undefined ? `position ${located[2]}` : lineAndColumn(text, Number(located[2]));
    return `${located[1]} (${where})`;
  }
  if (message.startsWith('Unexpected end of JSON input')) return 'Unexpected end of JSON input';
  return 'not valid JSON';
}

// js-yaml names what it could not resolve: `unidentified alias "Tok3n" (2:10)`, `unknown tag !<!Tok3n> (3:1)`.
const QUOTED_NAME = /\s*"[^"]*"/g;
const TAG_NAME = /\s*!<[^>]*>/g;
// `tag name cannot contain such characters: <name>`, `tag prefix is malformed: <prefix>`.
const NAME_AFTER_COLON = /: .*?(?=\s\(\d+:\d+\)$|$)/;
const ALIAS_OR_TAG = /alias|tag/;

/** js-yaml's first line (`<message> (line:column)`) with the names it quotes left out. */
export function yamlReason(firstLine: string): string {
  const reason = firstLine.replace(QUOTED_NAME, '').replace(TAG_NAME, '').replace(NAME_AFTER_COLON, '');
  if (!ALIAS_OR_TAG.test(reason)) return reason;
  return `${reason}: quote a value that starts with * or ! (YAML reads it as an alias or a tag)`;
}
