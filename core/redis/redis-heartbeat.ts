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
  let awaitingPong = false;
  const heartbeat = setInterval(() => {
    if (client.status !== 'ready' || awaitingPong) return;
    awaitingPong = true;
    const overdue = setTimeout(() => {
      awaitingPong = false;
      if (client.status === 'ready') client.disconnect(true);
    }, intervalMs);
    overdue.unref();
    // Only an answer clears it: a command timeout's rejection is no sign of life.
    client.ping().then(
      () => {
        clearTimeout(overdue);
        awaitingPong = false;
      },
      () => undefined,
    );
  }, intervalMs);
  heartbeat.unref();
  client.once('end', () => clearInterval(heartbeat));
}
