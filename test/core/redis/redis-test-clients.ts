import type Redis from 'ioredis';
import { createRedisClient } from '../../../core';

/** A logger that keeps what it was told, to count warnings. */
export function recordingLogger(): { warnings: string[]; infos: string[]; warn(message: string): void; info(message: string): void } {
  const warnings: string[] = [];
  const infos: string[] = [];
  return { warnings, infos, warn: (message) => void warnings.push(message), info: (message) => void infos.push(message) };
}

/** A request-path client (fails fast while Redis is away), once it is connected. */
export async function readyClient(url: string, logger?: ReturnType<typeof recordingLogger>, role = 'test client'): Promise<Redis> {
  const client = createRedisClient(url, { queueWhileDisconnected: false, role, ...(logger && { logger }) });
  await connected(client);
  return client;
}

/** Resolves once the client is (again) connected. */
export async function connected(client: Redis): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise((resolve) => client.once('ready', resolve));
}

/** Resolves once the client has noticed that Redis is gone. */
export async function disconnected(client: Redis): Promise<void> {
  if (client.status !== 'ready') return;
  await new Promise((resolve) => client.once('close', resolve));
}
