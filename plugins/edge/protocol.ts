/**
 * The read-aloud WebSocket protocol (the Speech SDK's message format): text frames are
 * `Name:value` header lines, a blank line and a body; binary frames start with a 2-byte
 * big-endian header length, then the header lines, then the payload (audio).
 */
export interface EdgeFrame<Body> {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Body;
}

const CRLF = '\r\n';

function parseHeaderLines(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split(CRLF)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

export function parseTextFrame(text: string): EdgeFrame<string> {
  const end = text.indexOf(CRLF + CRLF);
  if (end < 0) return { headers: parseHeaderLines(text), body: '' };
  return { headers: parseHeaderLines(text.slice(0, end)), body: text.slice(end + 4) };
}

/** Parses a binary frame; undefined when it is too short for its declared header. */
export function parseBinaryFrame(bytes: Uint8Array): EdgeFrame<Uint8Array> | undefined {
  if (bytes.byteLength < 2) return undefined;
  const headerLength = (bytes[0] << 8) | bytes[1];
  if (bytes.byteLength < 2 + headerLength) return undefined;
  const headerText = new TextDecoder().decode(bytes.subarray(2, 2 + headerLength));
  return { headers: parseHeaderLines(headerText), body: bytes.subarray(2 + headerLength) };
}

/** The JavaScript `Date#toString()` shape the browser sends, always in UTC. */
export function edgeTimestamp(date: Date): string {
  const [weekday, day, month, year, time] = date.toUTCString().replace(',', '').split(' ');
  return `${weekday} ${month} ${day} ${year} ${time} GMT+0000 (Coordinated Universal Time)`;
}

/** First message of a turn: the output format, with word and sentence events off. */
export function speechConfigMessage(outputFormat: string, timestamp: string): string {
  const config = {
    context: { synthesis: { audio: { metadataoptions: { sentenceBoundaryEnabled: 'false', wordBoundaryEnabled: 'false' }, outputFormat } } },
  };
  return `X-Timestamp:${timestamp}${CRLF}Content-Type:application/json; charset=utf-8${CRLF}Path:speech.config${CRLF}${CRLF}${JSON.stringify(config)}`;
}

/** Second message: the SSML document, tagged with the turn's request id. */
export function ssmlMessage(requestId: string, ssml: string, timestamp: string): string {
  return `X-RequestId:${requestId}${CRLF}Content-Type:application/ssml+xml${CRLF}X-Timestamp:${timestamp}${CRLF}Path:ssml${CRLF}${CRLF}${ssml}`;
}
