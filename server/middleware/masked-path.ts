const MAX_LOGGED_PATH = 200;
const DOWNLOAD_PREFIX = '/api/v1/audio/download/';
const MASK = '<masked>';
/** What the gateway's own route words are made of; anything else (`@`, a space, `%`, `+`, `=`, a letter beyond ASCII) is not one of them. */
const ROUTE_WORD = /^[A-Za-z0-9._~-]{1,64}$/;
/** A key's prefix (OpenAI's `sk-`, ElevenLabs' `xi-`, the gateway's `ttsg_`), however little follows it. */
const KEY_PREFIX = /^(sk|xi|ttsg|key|token|pk|rk)[-_]/i;
/** Over 16 characters with a digit: an access key id (AKIA…, 20), a UUID, a token. */
const LONG_WITH_DIGIT = /^(?=.*[0-9]).{16,}$/;
/** As long as a download name's secret part (32 base64url characters). */
const SECRET_LIKE = /^.{32,}$/;

/**
 * One segment of a path the client typed, as the log may show it: a route word (`tts-sync`, a
 * misspelt `speach`) as it is; anything that may be personal or secret (an email, a name, a key
 * pasted into the wrong place) masked whole. Judged decoded, so `%40` is an `@`.
 */
function maskedSegment(segment: string): string {
  if (segment === '') return segment;
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return MASK;
  }
  if (!ROUTE_WORD.test(decoded)) return MASK;
  // Each part between dots apart, so that a file's extension stays readable (`<masked>.mp3`).
  return decoded.split('.').map(maskedWord).join('.');
}

function maskedWord(word: string): string {
  return KEY_PREFIX.test(word) || LONG_WITH_DIGIT.test(word) || SECRET_LIKE.test(word) ? MASK : word;
}

/**
 * An unmatched path as the access log writes it: everything after the download prefix (a
 * download name is a capability), and each segment that is not plainly a route word, masked;
 * at most 200 characters.
 */
export function maskedPath(path: string): string {
  const masked = path.startsWith(DOWNLOAD_PREFIX) ? `${DOWNLOAD_PREFIX}<file>` : path.split('/').map(maskedSegment).join('/');
  return masked.slice(0, MAX_LOGGED_PATH);
}
