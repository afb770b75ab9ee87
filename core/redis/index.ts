export { createRedisClient, type RedisClientOptions, type RedisLogger } from './redis-client';
export { RedisKeyRevocations, type RedisKeyRevocationsOptions } from './redis-key-revocations';
export { RedisWindowCounters } from './redis-window-counters';
export { RedisResultIndex, type RedisResultIndexOptions } from './redis-result-index';
export { RedisSharedFlight, type RedisSharedFlightOptions } from './redis-shared-flight';
