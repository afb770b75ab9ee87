import { escapeXml } from './escape-xml';

/** One SSML document with one voice and, optionally, one prosody element around the text. */
export interface ProsodySsmlOptions {
  /** BCP 47 tag for `xml:lang` on `<speak>`, for example `en-US`. */
  readonly lang: string;
  /** The provider's voice name for `<voice name>`. */
  readonly voice: string;
  /** Plain text; it is XML-escaped here, so markup in it is spoken, never interpreted. */
  readonly text: string;
  /** `rate` attribute in the provider's units, already formatted (`+50%`). Absent = no change. */
  readonly rate?: string;
  /** `pitch` attribute in the provider's units, already formatted (`+12st`). Absent = no change. */
  readonly pitch?: string;
  /** `volume` attribute in the provider's units, already formatted (`-20%`, `+6dB`). Absent = no change. */
  readonly volume?: string;
}

/**
 * Builds `<speak><voice><prosody>text</prosody></voice></speak>` (W3C SSML 1.0, the shape
 * Azure Speech and Edge read-aloud take). The prosody element is left out when no attribute is
 * set, so a request at default settings sends the plainest document the service accepts.
 */
export function buildProsodySsml(options: ProsodySsmlOptions): string {
  const attributes = (['rate', 'pitch', 'volume'] as const)
    .filter((name) => options[name] !== undefined)
    .map((name) => ` ${name}='${escapeXml(options[name] ?? '')}'`)
    .join('');
  const text = escapeXml(options.text);
  const body = attributes.length > 0 ? `<prosody${attributes}>${text}</prosody>` : text;
  return (
    `<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xml:lang='${escapeXml(options.lang)}'>` +
    `<voice name='${escapeXml(options.voice)}'>${body}</voice></speak>`
  );
}

/**
 * Formats a relative SSML value with an explicit sign and at most two decimals:
 * `signedSsmlValue(50, '%')` is `+50%`, `signedSsmlValue(-7.0196, 'st')` is `-7.02st`.
 */
export function signedSsmlValue(value: number, unit: string): string {
  const rounded = Math.round(value * 100) / 100;
  const magnitude = Math.abs(rounded);
  return `${rounded < 0 ? '-' : '+'}${magnitude}${unit}`;
}
