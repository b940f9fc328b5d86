/**
 * A Redis store for a fleet of agent workers: archives expire per conversation, learned windows and calibrations stay.
 * @packageDocumentation
 */
export { isArchiveKey, type RedisStore, type RedisStoreOptions, redisStore } from './redis-store.ts';
