import { S3Client } from '@aws-sdk/client-s3';
import { expect } from 'chai';
import { createServer, type Server, type Socket } from 'node:net';
import { S3AudioStore } from '../../../core';
import { HOUR } from './audio-store-contract';

/** An "S3 endpoint" that takes connections and the request, and never answers (a stalled gateway or load balancer). */
async function silentEndpoint(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('core/storage S3AudioStore save and the request deadline', () => {
  it('a save whose signal is aborted (the deadline) answers at once instead of waiting for a stalled S3', async () => {
    const endpoint = await silentEndpoint();
    const client = new S3Client({ endpoint: endpoint.url, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'k', secretAccessKey: 's' } });
    try {
      const store = new S3AudioStore({ client, bucket: 'audio', retentionMs: HOUR });
      const deadline = new AbortController();
      setTimeout(() => deadline.abort(new Error('deadline')), 200);
      const outcome = await Promise.race([
        store.save(new Uint8Array(1000), 'mp3', { signal: deadline.signal }).then(
          () => 'saved',
          () => 'rejected',
        ),
        new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3000).unref()),
      ]);
      expect(outcome).to.equal('rejected');
    } finally {
      client.destroy();
      await endpoint.close();
    }
  });
});
