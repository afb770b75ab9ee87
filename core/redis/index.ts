export { createRedisClient, type RedisClientOptions, type RedisLogger } from './redis-client';
export { RedisKeyRevocations, type RedisKeyRevocationsOptions } from './redis-key-revocations';
