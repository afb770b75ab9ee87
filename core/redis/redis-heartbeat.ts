import type Redis from 'ioredis';

/** How often a connection is asked for a PONG, and how long its answer may take before the connection is made again. */
export const HEARTBEAT_MS = 2000;

/**
 * Drops and makes again a connection whose PING goes unanswered. A network that silently stops
 * passing packets (a dropped NAT entry, a failed-over host) does not close the socket: ioredis
 * kept such a connection 'ready' for good, so a subscriber never heard another announcement
 * (and its replica trusted its key cache) and every request-path command waited its full
 * timeout, with no reconnect. ioredis sets no TCP keep-alive by default, so nothing else notices.
 */
export function keepConnectionChecked(client: Redis, intervalMs = HEARTBEAT_MS): void {
  let checking = false;
  const heartbeat = setInterval(() => {
    if (client.status !== 'ready' || checking) return;
    checking = true;
    const { stream } = client;
    const bytesBefore = stream.bytesRead;
    // Its answer is not awaited: any byte the connection receives from now on shows it alive,
    // even one that came after the command's own timeout had rejected it.
    client.ping().catch(() => undefined);
    setTimeout(() => {
      // Looked at after the pending reads: an event loop that was itself blocked (a long GC) runs
      // expired timers before it reads the PONG waiting in the socket.
      setImmediate(() => {
        checking = false;
        // Destroyed, not ended: an end waits for the other side's answer, which a cut network never passes.
        if (client.status === 'ready' && client.stream === stream && stream.bytesRead === bytesBefore) stream.destroy();
      }).unref();
    }, intervalMs).unref();
  }, intervalMs);
  heartbeat.unref();
  client.once('end', () => clearInterval(heartbeat));
}
