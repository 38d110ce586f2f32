import type { Logger } from 'pino';
import { withTimeout } from '../core/timeout';
import type { ConnectorConfig } from '../config/load-config';
import { connectRedis, type RedisClient } from '../core/redis-connection';
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
      return [
        fail(
          'redis',
          REACHABLE,
          { en: `no answer from ${safeUrl(config.redis.url)}: ${(error as Error).message}`, pt: `${safeUrl(config.redis.url)} não respondeu: ${(error as Error).message}` },
          { en: 'Start Redis, or fix redis.url (and redis.tls / redis.cluster) in the config.', pt: 'Arranque o Redis, ou corrija redis.url (e redis.tls / redis.cluster) na configuração.' },
        ),
      ];
    }
    const checks: Check[] = [ok('redis', REACHABLE, safeUrl(config.redis.url))];
    const appendonly = await configValue(redis, 'appendonly');
    if ('error' in appendonly) {
      checks.push(
        warn('redis', AOF, configRefused(appendonly.error), {
          en: 'Make sure the server runs with appendonly yes (managed Redis: turn on persistence/AOF in its console).',
          pt: 'Confirme que o servidor corre com appendonly yes (Redis gerido: ative a persistência AOF na sua consola).',
        }),
      );
    } else if (appendonly.value === 'yes') {
      checks.push(ok('redis', AOF, 'appendonly yes'));
    } else {
      checks.push(
        fail(
          'redis',
          AOF,
          {
            en: `appendonly ${appendonly.value}: a restart of Redis loses the queue and the ledger written since the last snapshot, and with them the proof of what was issued`,
            pt: `appendonly ${appendonly.value}: um reinício do Redis perde a fila e o registo escritos desde o último snapshot e, com eles, a prova do que foi emitido`,
          },
          {
            en: 'Set appendonly yes in redis.conf (or CONFIG SET appendonly yes then CONFIG REWRITE); managed Redis: turn on AOF persistence.',
            pt: 'Defina appendonly yes no redis.conf (ou CONFIG SET appendonly yes e depois CONFIG REWRITE); Redis gerido: ative a persistência AOF.',
          },
        ),
      );
    }
    const policy = await configValue(redis, 'maxmemory-policy');
    if ('error' in policy) {
      checks.push(
        warn('redis', EVICTION, configRefused(policy.error), {
          en: 'Make sure maxmemory-policy is noeviction (managed Redis: its parameter group or console).',
          pt: 'Confirme que maxmemory-policy é noeviction (Redis gerido: o seu grupo de parâmetros ou consola).',
        }),
      );
    } else if (policy.value === 'noeviction') {
      checks.push(ok('redis', EVICTION, 'noeviction'));
    } else {
      checks.push(
        fail(
          'redis',
          EVICTION,
          {
            en: `maxmemory-policy ${policy.value}: when memory is full Redis deletes keys, jobs and ledger entries among them (BullMQ requires noeviction)`,
            pt: `maxmemory-policy ${policy.value}: com a memória cheia, o Redis apaga chaves, entre elas tarefas e entradas do registo (o BullMQ exige noeviction)`,
          },
          {
            en: 'Set maxmemory-policy noeviction in redis.conf (or CONFIG SET maxmemory-policy noeviction then CONFIG REWRITE); managed Redis: its parameter group.',
            pt: 'Defina maxmemory-policy noeviction no redis.conf (ou CONFIG SET maxmemory-policy noeviction e depois CONFIG REWRITE); Redis gerido: o seu grupo de parâmetros.',
          },
        ),
      );
    }
    return checks;
  } finally {
    redis.disconnect();
  }
}

const REACHABLE = { en: 'Redis reachable', pt: 'Redis acessível' };
const AOF = { en: 'Redis persistence (AOF)', pt: 'Persistência do Redis (AOF)' };
const EVICTION = { en: 'Redis eviction policy', pt: 'Política de despejo do Redis' };

function configRefused(error: string): { en: string; pt: string } {
  return { en: `could not check: CONFIG GET is refused here (${error})`, pt: `não foi possível verificar: aqui o CONFIG GET é recusado (resposta do Redis: «${error}»)` };
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
