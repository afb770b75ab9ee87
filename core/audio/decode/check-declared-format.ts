import type { AudioFormat } from '../audio-format';
import { sniffAudioFormat } from '../sniff-audio-format';
import { undecodable } from './decode-error';

/** Bytes the sniffer needs to name every format it knows (an Ogg page header with its first packet). */
export const SNIFF_BYTES = 64;

/**
 * Checks that the start of a provider answer really is the format the provider declared, so a
 * JSON error or HTML page sent as audio is a clear upstream fault. Raw pcm has no signature.
 */
export function checkDeclaredFormat(head: Uint8Array, format: AudioFormat): void {
  if (format === 'pcm') return;
  const sniffed = sniffAudioFormat(head);
  if (sniffed !== format) throw undecodable(format, sniffed ? `bytes are ${sniffed}, not ${format}` : 'bytes match no known audio format');
}
