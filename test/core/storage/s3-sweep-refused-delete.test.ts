import { S3Client } from '@aws-sdk/client-s3';
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3AudioStore } from '../../../core';
import { HOUR } from './audio-store-contract';

const LOCKED = `${'L'.repeat(32)}.mp3`;
const EXPIRED = `${'E'.repeat(32)}.mp3`;

const listing = (key: string, nextToken?: string): string =>
  '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>audio</Name><Prefix></Prefix><KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys>' +
  (nextToken ? `<IsTruncated>true</IsTruncated><NextContinuationToken>${nextToken}</NextContinuationToken>` : '<IsTruncated>false</IsTruncated>') +
  `<Contents><Key>${key}</Key><LastModified>2020-01-01T00:00:00.000Z</LastModified><ETag>"e"</ETag><Size>3</Size><StorageClass>STANDARD</StorageClass></Contents></ListBucketResult>`;

/**
 * A bucket of two expired objects on two listing pages, the first of which S3 refuses to delete
 * (an object lock, a policy denying that key): the second must be deleted all the same.
 */
async function bucketWithLockedObject(): Promise<{ url: string; deleteAsked: string[]; close(): Promise<void> }> {
  const deleteAsked: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://s3');
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      response.setHeader('Content-Type', 'application/xml');
      if (request.method === 'GET' && url.searchParams.get('list-type') === '2') {
        response.end(url.searchParams.get('continuation-token') === 'page-2' ? listing(EXPIRED) : listing(LOCKED, 'page-2'));
        return;
      }
      if (request.method === 'POST' && url.searchParams.has('delete')) {
        const keys = [...body.matchAll(/<Key>([^<]+)<\/Key>/g)].map((match) => match[1]);
        deleteAsked.push(...keys);
        const results = keys.map((key) =>
          key === LOCKED ? `<Error><Key>${key}</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>` : `<Deleted><Key>${key}</Key></Deleted>`,
        );
        response.end(`<?xml version="1.0" encoding="UTF-8"?><DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${results.join('')}</DeleteResult>`);
        return;
      }
      response.statusCode = 400;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deleteAsked,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('core/storage S3AudioStore sweep when S3 refuses to delete some objects', () => {
  it('goes on through the later pages and reports the refusal at the end', async () => {
    const bucket = await bucketWithLockedObject();
    const client = new S3Client({ endpoint: bucket.url, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'k', secretAccessKey: 's' } });
    try {
      const store = new S3AudioStore({ client, bucket: 'audio', retentionMs: HOUR });
      const outcome = await store.sweep().then(
        (removed) => `removed ${removed}`,
        (error: Error) => error.message,
      );
      expect(bucket.deleteAsked).to.deep.equal([LOCKED, EXPIRED]);
      expect(outcome).to.equal('S3 refused to delete 1 expired audio objects (first: AccessDenied); 1 deleted');
    } finally {
      client.destroy();
      await bucket.close();
    }
  });
});
