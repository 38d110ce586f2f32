import type { Logger } from 'pino';
import type { ConnectorConfig } from '../config/load-config';
import { connectRedis, type RedisClient } from '../redis-connection';
import { fail, ok, warn, type Check } from './check';

/** How long the doctor waits for Redis before calling it unreachable. */
const REDIS_TIMEOUT_MS = 5_000;

/**
 * Redis answers, keeps what it is given across a restart (AOF), and never evicts keys: the queues
 * and the ledger that proves what was issued live there.
 */
export async function checkRedis(config: ConnectorConfig, logger: Logger): Promise<Check[]> {
  const redis = connectRedis(config.redis, 'worker', logger);
  try {
    try {
      await withTimeout(redis.ping(), REDIS_TIMEOUT_MS);
    } catch (error) {
      return [fail('redis', 'Redis reachable', `no answer from ${safeUrl(config.redis.url)}: ${(error as Error).message}`, 'Start Redis, or fix redis.url (and redis.tls / redis.cluster) in the config.')];
    }
    const checks: Check[] = [ok('redis', 'Redis reachable', safeUrl(config.redis.url))];
    const appendonly = await configValue(redis, 'appendonly');
    if ('error' in appendonly) {
      checks.push(
        warn('redis', 'Redis persistence (AOF)', `could not check: CONFIG GET is refused here (${appendonly.error})`, 'Make sure the server runs with appendonly yes (managed Redis: turn on persistence/AOF in its console).'),
      );
    } else if (appendonly.value === 'yes') {
      checks.push(ok('redis', 'Redis persistence (AOF)', 'appendonly yes'));
    } else {
      checks.push(
        fail(
          'redis',
          'Redis persistence (AOF)',
          `appendonly ${appendonly.value}: a restart of Redis loses the queue and the ledger written since the last snapshot, and with them the proof of what was issued`,
          'Set appendonly yes in redis.conf (or CONFIG SET appendonly yes then CONFIG REWRITE); managed Redis: turn on AOF persistence.',
        ),
      );
    }
    const policy = await configValue(redis, 'maxmemory-policy');
    if ('error' in policy) {
      checks.push(warn('redis', 'Redis eviction policy', `could not check: CONFIG GET is refused here (${policy.error})`, 'Make sure maxmemory-policy is noeviction (managed Redis: its parameter group or console).'));
    } else if (policy.value === 'noeviction') {
      checks.push(ok('redis', 'Redis eviction policy', 'noeviction'));
    } else {
      checks.push(
        fail(
          'redis',
          'Redis eviction policy',
          `maxmemory-policy ${policy.value}: when memory is full Redis deletes keys, jobs and ledger entries among them (BullMQ requires noeviction)`,
          'Set maxmemory-policy noeviction in redis.conf (or CONFIG SET maxmemory-policy noeviction then CONFIG REWRITE); managed Redis: its parameter group.',
        ),
      );
    }
    return checks;
  } finally {
    redis.disconnect();
  }
}

async function configValue(redis: RedisClient, name: string): Promise<{ value: string } | { error: string }> {
  try {
    const answer = (await withTimeout(redis.config('GET', name), REDIS_TIMEOUT_MS)) as unknown;
    if (Array.isArray(answer) && answer.length >= 2) return { value: String(answer[1]) };
    return { error: `no value for ${name}` };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The URL without its password. */
function safeUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
