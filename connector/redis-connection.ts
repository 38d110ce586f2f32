import IORedis, { type Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Two kinds of connection, for two failure policies:
 * - `ingest`: commands fail at once while Redis is away (no offline queue, one try), so the webhook
 *   route can answer 503 quickly and WooCommerce counts a failure that the sweep later makes good;
 * - `worker`: commands wait for Redis to come back (BullMQ requires maxRetriesPerRequest null for workers);
 * - `ledger`: the worker policy, auto-pipelined. The ledger's reads and writes from many concurrent
 *   jobs then leave in one socket write per event-loop turn instead of one each (a write to Redis
 *   was the largest single cost in the worker's profile). Kept apart from BullMQ's connection,
 *   which is not meant to be auto-pipelined. Each job still awaits its own reply before the next
 *   step, so "ledger before create" holds exactly as before.
 */
export function connectRedis(url: string, kind: 'ingest' | 'worker' | 'ledger', logger: Logger): Redis {
  const common: RedisOptions = {
    connectTimeout: 3_000,
    // Keep trying to reconnect, but never faster than every 200 ms nor slower than every 2 s.
    retryStrategy: (times) => Math.min(200 * times, 2_000),
  };
  const options: RedisOptions =
    kind === 'ingest'
      ? // Auto-pipelining writes all commands issued in one event-loop turn in one go: many webhooks
        // arrive together, and each becomes a few Redis commands.
        { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1, enableAutoPipelining: true }
      : { ...common, maxRetriesPerRequest: null, enableAutoPipelining: kind === 'ledger' };
  const redis = new IORedis(url, options);
  let reported = false;
  // An unhandled 'error' event would crash the process; log the first of a run, not every retry.
  redis.on('error', (error: Error) => {
    if (!reported) logger.warn({ err: error.message, kind }, 'redis connection error');
    reported = true;
  });
  redis.on('ready', () => {
    if (reported) logger.info({ kind }, 'redis connection back');
    reported = false;
  });
  return redis;
}

export function isRedisReady(redis: Redis): boolean {
  return redis.status === 'ready';
}
