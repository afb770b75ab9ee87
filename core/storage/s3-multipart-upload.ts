import type { PutObjectCommandInput, S3Client } from '@aws-sdk/client-s3';

// Loaded at the first call, as in s3-audio-store.ts (the SDK is large).
const s3Sdk = (): typeof import('@aws-sdk/client-s3') => require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
const s3Uploads = (): typeof import('@aws-sdk/lib-storage') => require('@aws-sdk/lib-storage') as typeof import('@aws-sdk/lib-storage');

export interface MultipartUploadOptions {
  readonly partSize: number;
  /** Stops the upload: the parts under way are let go and the upload is aborted. */
  readonly signal?: AbortSignal;
}

/**
 * A multipart upload that a signal really stops. lib-storage's own abort only ends its promise:
 * it sends its parts without a signal, so a stalled part went on (each attempt up to the client's
 * requestTimeout, retried) after the request had ended, and the upload was aborted only after
 * them. Here every request of the upload carries the signal, except the AbortMultipartUpload that
 * follows a stop (left with no parts to pay for; leavePartsOnError stays false).
 */
export async function uploadInParts(client: S3Client, params: PutObjectCommandInput, options: MultipartUploadOptions): Promise<void> {
  const { signal } = options;
  const abortController = new AbortController();
  const stop = (): void => abortController.abort(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  const { AbortMultipartUploadCommand } = s3Sdk();
  // The client as lib-storage sees it: the same one (its config, its connections), its requests stoppable.
  const stoppable = Object.create(client) as S3Client;
  const send = ((command: Parameters<S3Client['send']>[0], sendOptions?: { abortSignal?: AbortSignal }) =>
    client.send(command, command instanceof AbortMultipartUploadCommand ? sendOptions : { ...sendOptions, abortSignal: abortController.signal })) as S3Client['send'];
  Object.defineProperty(stoppable, 'send', { value: send });
  try {
    await new (s3Uploads().Upload)({ client: stoppable, params, partSize: options.partSize, queueSize: 2, abortController }).done();
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}
