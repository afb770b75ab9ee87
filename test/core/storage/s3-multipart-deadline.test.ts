import { S3Client } from '@aws-sdk/client-s3';
import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3AudioStore } from '../../../core';
import { HOUR } from './audio-store-contract';

const UPLOAD_ID = 'upload-1';

/**
 * An S3 endpoint that starts multipart uploads and then never answers a part (a stalled bucket),
 * telling the test when a part's request is closed by the client and when the upload is aborted.
 */
async function stallingPartsEndpoint() {
  let partArrived: () => void = () => undefined;
  let partsClosed: () => void = () => undefined;
  let uploadAborted: () => void = () => undefined;
  const events = {
    partArrived: new Promise<void>((resolve) => (partArrived = resolve)),
    partsClosed: new Promise<void>((resolve) => (partsClosed = resolve)),
    uploadAborted: new Promise<void>((resolve) => (uploadAborted = resolve)),
  };
  let openParts = 0;
  const server: Server = createServer((request: IncomingMessage, response) => {
    const url = new URL(request.url ?? '/', 'http://s3');
    if (request.method === 'POST' && url.searchParams.has('uploads')) {
      request.resume();
      request.on('end', () => {
        response.setHeader('Content-Type', 'application/xml');
        response.end(`<?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult><Bucket>audio</Bucket><Key>k</Key><UploadId>${UPLOAD_ID}</UploadId></InitiateMultipartUploadResult>`);
      });
      return;
    }
    if (request.method === 'PUT' && url.searchParams.has('partNumber')) {
      openParts += 1;
      partArrived();
      // Never answered, never read to its end: the part stalls until the client lets it go.
      request.on('close', () => {
        openParts -= 1;
        if (openParts === 0) partsClosed();
      });
      return;
    }
    request.resume();
    if (request.method === 'DELETE' && url.searchParams.get('uploadId') === UPLOAD_ID) uploadAborted();
    response.statusCode = 204;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A multipart save stopped by its request's deadline (or a client that left): the parts under
 * way are let go at once and the upload is aborted (no parts left in the bucket to pay for), not
 * sent on (each attempt up to storage.s3.requestTimeout, retried) after the request has ended.
 */
describe('core/storage S3AudioStore multipart save stopped by its signal', () => {
  it('lets the stalled parts go and aborts the multipart upload', async () => {
    const endpoint = await stallingPartsEndpoint();
    const client = new S3Client({ endpoint: endpoint.url, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'k', secretAccessKey: 's' } });
    try {
      const store = new S3AudioStore({ client, bucket: 'audio', retentionMs: HOUR, multipartThreshold: 6 * 1024 * 1024, partSize: 5 * 1024 * 1024 });
      const deadline = new AbortController();
      const saving = store.save(new Uint8Array(11 * 1024 * 1024), 'wav', { signal: deadline.signal }).then(
        () => 'saved',
        (error: Error) => error.message,
      );
      await endpoint.events.partArrived;
      deadline.abort(new Error('deadline'));
      expect(await saving).to.equal('deadline');
      // Without the signal reaching the parts, they stay open and the abort never comes (the test's timeout).
      await endpoint.events.partsClosed;
      await endpoint.events.uploadAborted;
    } finally {
      client.destroy();
      await endpoint.close();
    }
  });
});
