/**
 * Tells the other replicas that a key was revoked, and hears about theirs. Redis pub/sub
 * implements it (core/redis); a single process needs none.
 */
export interface KeyRevocations {
  /** Announces a revocation; never throws, nor waits for a shared service that is away (one not sent yet may be sent later; a replica that never hears it drops the key when its cache entry expires). */
  announce(keyId: string): Promise<void>;
  /** `onRevoked` for each key another replica revoked; `onMissed` when announcements may have been lost (a reconnect). */
  listen(listener: { onRevoked(keyId: string): void; onMissed(): void }): void;
  /**
   * True while announcements reach this process (subscribed on a live connection). While false,
   * a revocation made elsewhere would go unheard, so cached keys must not be trusted.
   */
  isListening(): boolean;
}
