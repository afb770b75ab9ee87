import { codePointCount, GatewayError, hasLoneSurrogate, MAX_TEXT_CODE_POINTS } from '../../core';

/**
 * A character an engine can speak: not whitespace, not a control character, not an invisible one
 * (zero-width space and joiners, direction marks, variation selectors, a byte-order mark: Unicode's
 * default-ignorable code points). Text of those alone gave a provider call billed for silence.
 */
const SPEAKABLE = /[^\s\p{Cc}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Refuses a string with a lone surrogate (400 `invalid_unicode` naming `field`): sent on, it would
 * reach the provider as U+FFFD, so what is spoken or followed is not what the client wrote.
 */
export function checkUnicodeText(text: string, field: string): void {
  if (hasLoneSurrogate(text)) {
    throw new GatewayError('TTS_ERR_VALIDATION', `${field} must be valid Unicode text (it holds a lone surrogate)`, { details: [{ field, reason: 'invalid_unicode' }] });
  }
}

/**
 * Checks `text` is Unicode text of 1..10,000 code points with something to speak; returns its
 * length. `field` names it in errors. The one text check of tts-sync, tts-stream and /v1/audio/speech.
 */
export function checkSynthesisText(text: string, field = 'text'): number {
  checkUnicodeText(text, field);
  const codePoints = codePointCount(text);
  if (codePoints === 0 || codePoints > MAX_TEXT_CODE_POINTS) {
    throw new GatewayError('TTS_ERR_VALIDATION', `${field} must be between 1 and ${MAX_TEXT_CODE_POINTS} characters long`, {
      details: [{ field, reason: codePoints === 0 ? 'minLength' : 'maxLength', length: codePoints }],
    });
  }
  if (!SPEAKABLE.test(text)) {
    throw new GatewayError('TTS_ERR_VALIDATION', `${field} must not be only whitespace or invisible characters`, { details: [{ field, reason: 'blank' }] });
  }
  return codePoints;
}
