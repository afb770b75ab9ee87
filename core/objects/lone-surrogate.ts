/** A UTF-16 surrogate with no partner: `\p{Cs}` under the `u` flag matches only unpaired ones. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether `text` holds a lone surrogate (JSON's "\ud800" parses to one). Such a string is no
 * Unicode text: encoding it to UTF-8 turns each into U+FFFD, so what is hashed or sent on is not
 * what was given. A pair (an emoji) is one code point and passes.
 */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
