import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (PostgreSQL) that a test can stall: while stalled, it
 * keeps every connection open and passes nothing on in either direction, as a server that hangs
 * or a network that drops packets would; resumed, it passes on what it held.
 */
export class StallableTcpProxy {
  private stalled = false;
  private readonly pairs = new Set<{ client: Socket; upstream: Socket }>();
  /** Bytes that arrived while stalled, in order, with the socket each is for. */
  private held: { to: Socket; bytes: Buffer }[] = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number, targetHost = '127.0.0.1'): Promise<StallableTcpProxy> {
    let proxy!: StallableTcpProxy;
    const server = createServer((client) => proxy.accept(client, targetPort, targetHost));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new StallableTcpProxy(server, (server.address() as { port: number }).port);
    return proxy;
  }

  /** Stops passing bytes on; the connections stay open. */
  stall(): void {
    this.stalled = true;
  }

  resume(): void {
    this.stalled = false;
    const held = this.held;
    this.held = [];
    for (const { to, bytes } of held) if (!to.destroyed) to.write(bytes);
  }

  /** Pieces of data held back since the stall (a statement sent, not yet passed on). */
  get heldChunks(): number {
    return this.held.length;
  }

  /** Connections open through the proxy now. */
  get openConnections(): number {
    return this.pairs.size;
  }

  /** Breaks every connection open now (held bytes dropped, no more stall); new ones are passed on again. */
  cutConnections(): void {
    this.stalled = false;
    this.held = [];
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise((resolve) => this.server.close(resolve));
  }

  private pass(to: Socket, bytes: Buffer): void {
    if (this.stalled) this.held.push({ to, bytes });
    else if (!to.destroyed) to.write(bytes);
  }

  private accept(client: Socket, targetPort: number, targetHost: string): void {
    const upstream = createConnection({ port: targetPort, host: targetHost });
    const pair = { client, upstream };
    this.pairs.add(pair);
    // By hand rather than pipe(): a pipe resumes a paused socket on its own when the other drains.
    client.on('data', (bytes: Buffer) => this.pass(upstream, bytes));
    upstream.on('data', (bytes: Buffer) => this.pass(client, bytes));
    const end = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }
}
