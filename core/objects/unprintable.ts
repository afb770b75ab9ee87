/**
 * Control characters (NUL, line breaks, escape sequences) and bidirectional overrides: a terminal
 * acts on them rather than showing them, and PostgreSQL cannot store a NUL in text at all.
 */
const UNPRINTABLE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/** Whether `text` holds a character no name or address a client chose should hold (see UNPRINTABLE). */
export function hasUnprintable(text: string): boolean {
  return UNPRINTABLE.test(text);
}
