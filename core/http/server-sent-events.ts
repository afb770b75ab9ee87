/** One dispatched server-sent event (only the fields a provider's stream uses). */
export interface ServerSentEvent {
  /** The `event:` field; `message` when the event named none. */
  readonly type: string;
  /** The `data:` lines joined with `\n`. */
  readonly data: string;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Parses a `text/event-stream` body as it arrives, following the WHATWG parsing rules: lines end
 * in CRLF, LF or CR (a CR at the end of one piece and the LF at the start of the next are one line
 * end); a blank line dispatches the event; `:` lines are comments; one space after the colon is
 * dropped. An event is never cut where a piece of the body ends. An event the body ends in the
 * middle of is not dispatched (the spec's rule): a caller that needs a closing event notices it
 * missing.
 */
export async function* serverSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let pending = new Uint8Array(0);
  let skipLineFeed = false;
  let type = '';
  let data: string[] = [];
  for await (const piece of body) {
    let bytes = concat(pending, piece);
    if (skipLineFeed && bytes.length > 0) {
      if (bytes[0] === LF) bytes = bytes.subarray(1);
      skipLineFeed = false;
    }
    let start = 0;
    for (let index = 0; index < bytes.length; index += 1) {
      const byte = bytes[index];
      if (byte !== LF && byte !== CR) continue;
      const line = decoder.decode(bytes.subarray(start, index));
      if (byte === CR) {
        if (index + 1 < bytes.length) {
          if (bytes[index + 1] === LF) index += 1;
        } else {
          skipLineFeed = true;
        }
      }
      start = index + 1;
      if (line === '') {
        if (data.length > 0) yield { type: type || 'message', data: data.join('\n') };
        type = '';
        data = [];
        continue;
      }
      const field = readField(line);
      if (field?.name === 'data') data.push(field.value);
      else if (field?.name === 'event') type = field.value;
    }
    pending = bytes.slice(start);
  }
}

function readField(line: string): { name: string; value: string } | undefined {
  if (line.startsWith(':')) return undefined;
  const colon = line.indexOf(':');
  if (colon < 0) return { name: line, value: '' };
  const value = line.slice(colon + 1);
  return { name: line.slice(0, colon), value: value.startsWith(' ') ? value.slice(1) : value };
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  if (first.length === 0) return second;
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}
