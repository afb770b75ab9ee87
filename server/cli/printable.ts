/** Control characters and bidirectional overrides, which a terminal would act on rather than show. */
const UNPRINTABLE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

/**
 * Text a client chose (a key name), made safe to print on the operator's terminal: each control
 * character becomes `?`. Names are refused with them now; rows written before may still hold some.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, '?');
}
