/**
 * Characters XML 1.0 cannot carry at all, not even as character references: C0 controls other
 * than tab, line feed and carriage return, lone surrogates, and U+FFFE / U+FFFF. Speech services
 * reject a document holding them (text copied from PDFs often has vertical tabs), so they become
 * spaces, which keeps word boundaries where they were.
 */
const NOT_XML_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
const MARKUP_CHARACTERS = /[&<>"']/g;

/**
 * Makes text safe as XML character data or as an attribute value (either quote style):
 * escapes the five markup characters and replaces characters XML 1.0 forbids with spaces.
 */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML_CHARACTERS, ' ').replace(MARKUP_CHARACTERS, (character) => ENTITIES[character]);
}

/**
 * How many characters `escapeXml` adds to `text` at most: each entity's length less the one
 * character it stands for (entities are ASCII: as many UTF-8 bytes). Replaced forbidden
 * characters are not counted (a space is never longer than what it replaces).
 */
export function lengthAddedByEscaping(text: string): number {
  let added = 0;
  for (const found of text.matchAll(MARKUP_CHARACTERS)) added += ENTITIES[found[0]].length - 1;
  return added;
}
