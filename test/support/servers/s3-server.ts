import { S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** s3rver accepts any signature; these are the keys its docs use. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/**
 * An S3-compatible server in this process (s3rver, files in a temporary folder), path-style,
 * with the named buckets made at start. Child processes reach it on 127.0.0.1 too.
 */
export class S3Server {
  private constructor(
    private readonly server: S3rver,
    private readonly folder: string,
    readonly port: number,
  ) {}

  static async start(buckets: readonly string[]): Promise<S3Server> {
    const folder = mkdtempSync(join(tmpdir(), 'tts-gateway-s3-'));
    const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: folder, configureBuckets: buckets.map((name) => ({ name })) });
    const { port } = await server.run();
    return new S3Server(server, folder, port);
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  client(): S3Client {
    return new S3Client({ endpoint: this.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  }

  async stop(): Promise<void> {
    await this.server.close();
    rmSync(this.folder, { recursive: true, force: true });
  }
}
