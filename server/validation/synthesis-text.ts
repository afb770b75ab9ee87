import { codePointCount, GatewayError, MAX_TEXT_CODE_POINTS } from '../../core';


/** Checks `text` is 1..10,000 code points and not only whitespace; returns its length. `field` names it in errors. */
export function checkSynthesisText(text: string, field = 'text'): number {
  const codePoints = codePointCount(text);
  if (codePoints === 0 || codePoints > MAX_TEXT_CODE_POINTS) {
    throw new GatewayError('TTS_ERR_VALIDATION', `${field} must be between 1 and ${MAX_TEXT_CODE_POINTS} characters long`, {
      details: [{ field, reason: codePoints === 0 ? 'minLength' : 'maxLength', length: codePoints }],
    });
  }
  if (text.trim().length === 0) {
    throw new GatewayError('TTS_ERR_VALIDATION', `${field} must not be only whitespace`, { details: [{ field, reason: 'blank' }] });
  }
  return codePoints;
}
