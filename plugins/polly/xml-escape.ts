/**
 * Escapes text for an XML element. Local until core's shared `escapeXml` (core/ssml) lands;
 * then this file goes and `ssml.ts` imports it from core.
 */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
