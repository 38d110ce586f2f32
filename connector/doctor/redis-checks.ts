import type { Logger } from 'pino';
import { withTimeout } from '../core/timeout';
import type { ConnectorConfig } from '../config/load-config';
import { connectRedis, type RedisClient } from '../core/redis-connection';
import { fail, ok, warn, type Check } from './check';
import { doctorSays } from './doctor-messages';

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
      return [
        fail('redis', REACHABLE, doctorSays('redis-silent', { url: safeUrl(config.redis.url), error: (error as Error).message }), doctorSays('redis-silent-fix')),
      ];
    }
    const checks: Check[] = [ok('redis', REACHABLE, safeUrl(config.redis.url))];
    const appendonly = await configValue(redis, 'appendonly');
    if ('error' in appendonly) {
      checks.push(warn('redis', AOF, configRefused(appendonly.error), doctorSays('redis-aof-unknown-fix')));
    } else if (appendonly.value === 'yes') {
      checks.push(ok('redis', AOF, 'appendonly yes'));
    } else {
      checks.push(fail('redis', AOF, doctorSays('redis-aof-off', { value: appendonly.value }), doctorSays('redis-aof-off-fix')));
    }
    const policy = await configValue(redis, 'maxmemory-policy');
    if ('error' in policy) {
      checks.push(warn('redis', EVICTION, configRefused(policy.error), doctorSays('redis-eviction-unknown-fix')));
    } else if (policy.value === 'noeviction') {
      checks.push(ok('redis', EVICTION, 'noeviction'));
    } else {
      checks.push(fail('redis', EVICTION, doctorSays('redis-evicts', { policy: policy.value }), doctorSays('redis-evicts-fix')));
    }
    return checks;
  } finally {
    redis.disconnect();
  }
}

const REACHABLE = doctorSays('redis-reachable');
const AOF = doctorSays('redis-aof');
const EVICTION = doctorSays('redis-eviction');

function configRefused(error: string): { en: string; pt: string } {
  return doctorSays('redis-config-refused', { error });
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


/** The URL without its password. */
function safeUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
