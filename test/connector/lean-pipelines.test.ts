import pino from 'pino';
import { connectRedis, type RedisTarget } from '../../connector/core/redis-connection';
import { REDIS_URL } from './support/harness';

/**
 * An auto-pipelined connection builds a pipeline per event-loop turn; ioredis copied every script
 * the connection knows onto each one (issue 29: ~18 KB per order with BullMQ's 52 scripts). Here the
 * scripts are found on the pipelines' prototype, built once, again when a script is defined later.
 */
describe('the pipelines of a connection carry no copy of its scripts', () => {
  const redis = connectRedis({ url: REDIS_URL, cluster: false } satisfies RedisTarget, 'ledger', pino({ level: 'silent' })) as import('ioredis').Redis;
  const prefix = `lean-pipelines-${process.pid}`;
  afterAll(async () => {
    await redis.del(`${prefix}:a`, `${prefix}:b`);
    await redis.quit();
  });

  it('runs scripts defined before and after the first pipeline, auto-pipelined and in an explicit pipeline', async () => {
    redis.defineCommand('leanEcho', { numberOfKeys: 1, lua: "redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[1])" });
    const first = redis.pipeline();
    expect(Object.prototype.hasOwnProperty.call(first, 'leanEcho')).toBe(false);
    expect(Object.keys(first).length).toBeLessThan(20);
    const echo = (redis as unknown as Record<string, (key: string, value: string) => Promise<string>>).leanEcho;
    // Several in one turn: one auto-pipeline.
    expect(await Promise.all([echo.call(redis, `${prefix}:a`, 'one'), echo.call(redis, `${prefix}:a`, 'two'), redis.get(`${prefix}:a`)])).toEqual(['one', 'two', 'two']);

    redis.defineCommand('leanIncr', { numberOfKeys: 1, lua: "return redis.call('INCRBY', KEYS[1], ARGV[1])" });
    const incr = (redis as unknown as Record<string, (key: string, by: number) => Promise<number>>).leanIncr;
    expect(await Promise.all([incr.call(redis, `${prefix}:b`, 2), incr.call(redis, `${prefix}:b`, 3)])).toEqual([2, 5]);

    const explicit = redis.pipeline() as unknown as { leanIncr(key: string, by: number): unknown; exec(): Promise<[Error | null, unknown][]> };
    explicit.leanIncr(`${prefix}:b`, 10);
    expect(await explicit.exec()).toEqual([[null, 15]]);
  });
});
