import type { Logger } from 'winston';
import type { StorageConfig } from '../config/types';
import { FileSystemAudioStore, S3AudioStore, type AudioStore } from '../core';
import { s3RequestHandler } from './s3-request-handler';
import { unexpectedErrorFields } from './unexpected-error';

/** The store `storage.driver` names, and what to release at shutdown. */
export function createAudioStore(storage: StorageConfig, logger: Logger): { store: AudioStore; close(): void } {
  // The timer goes on: a failed sweep (a stalled or failing store) is tried again at the next one.
  const onSweepError = (error: unknown): void =>
    void logger.warn('audio sweep failed; the next sweep tries again', { ...unexpectedErrorFields(error), nextSweepInMs: storage.sweepIntervalMs });
  if (storage.driver !== 's3' || !storage.s3) {
    return { store: new FileSystemAudioStore(storage.path, storage.retentionMs, { onSweepError }), close: () => undefined };
  }
  const { s3 } = storage;
  // Without credentials in the config the SDK's default chain applies (environment, shared profile, instance or task role).
  // Loaded only for the S3 driver: the SDK costs about 20 MB and 80 ms at start.
  const { S3Client } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  const client = new S3Client({
    region: s3.region ?? process.env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: s3.forcePathStyle,
    ...(s3.endpoint !== undefined && { endpoint: s3.endpoint }),
    // A copy: the config is frozen, and the SDK marks the credentials object it is given.
    ...(s3.credentials && { credentials: { ...s3.credentials } }),
    requestHandler: s3RequestHandler(s3),
  });
  const store = new S3AudioStore({ client, bucket: s3.bucket, prefix: s3.prefix, retentionMs: storage.retentionMs, onSweepError });
  return { store, close: () => client.destroy() };
}
