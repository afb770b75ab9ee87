import { randomBytes } from 'node:crypto';
import { GatewayError, gatewayError } from '../errors';

/** 24 random bytes = 192 bits, 32 base64url characters. */
const NAME_BYTES = 24;
/**
 * `<32 base64url chars>.<ext>`; raw PCM carries its sample rate in the name
 * (`<random>.<rate>.pcm`) so that one stored object holds everything needed to serve it.
 */
export const AUDIO_FILE_NAME_PATTERN = /^([A-Za-z0-9_-]{32})(?:\.([1-9][0-9]{3,5}))?\.([a-z0-9]{1,10})$/;
const EXTENSION_PATTERN = /^[a-z0-9]{1,10}$/;

/**
 * Names are cut from random bytes drawn 170 names at a time (as Node's randomUUID batches its
 * own): one call into the CSPRNG per name cost more than the rest of naming a file, measured.
 * Each byte serves one name only.
 */
const BATCH_BYTES = NAME_BYTES * 170;
let batch = Buffer.alloc(0);
let batchOffset = 0;

function randomPart(): string {
  if (batchOffset + NAME_BYTES > batch.length) {
    batch = randomBytes(BATCH_BYTES);
    batchOffset = 0;
  }
  const part = batch.toString('base64url', batchOffset, batchOffset + NAME_BYTES);
  batchOffset += NAME_BYTES;
  return part;
}

/** A fresh unguessable name for audio of this extension (every store names files alike). */
export function newAudioFileName(extension: string, sampleRate: number | undefined): { random: string; fileName: string } {
  if (!EXTENSION_PATTERN.test(extension)) throw new GatewayError('TTS_ERR_INTERNAL', `Unusable audio file extension "${extension}"`);
  const rateIsValid = sampleRate !== undefined && Number.isInteger(sampleRate) && sampleRate >= 1000 && sampleRate <= 999_999;
  if (extension === 'pcm' && !rateIsValid) throw new GatewayError('TTS_ERR_INTERNAL', 'Raw PCM audio needs a sample rate to be stored');
  const random = randomPart();
  return { random, fileName: extension === 'pcm' ? `${random}.${sampleRate}.pcm` : `${random}.${extension}` };
}

/**
 * What a client-given name says, or a 404 GatewayError for a name no store could have produced
 * (traversal attempts included): the only way from a request to a stored file.
 */
export function parseAudioFileName(fileName: string): { extension: string; sampleRate?: number } {
  const match = AUDIO_FILE_NAME_PATTERN.exec(fileName);
  const extension = match?.[3];
  const sampleRate = match?.[2] === undefined ? undefined : Number(match[2]);
  if (!match || extension === undefined || (extension === 'pcm') !== (sampleRate !== undefined)) throw audioNotFound();
  return sampleRate === undefined ? { extension } : { extension, sampleRate };
}

export function audioNotFound(): GatewayError {
  return gatewayError('TTS_ERR_NOT_FOUND', { what: 'audio file' }, { details: [{ field: 'file', reason: 'not found' }] });
}
