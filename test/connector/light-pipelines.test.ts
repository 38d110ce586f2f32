import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import pino from 'pino';
import { connectRedis, type RedisTarget } from '../../connector/core/redis-connection';
import { OrderHistory } from '../../connector/history/order-history';
import { REDIS_URL } from './support/harness';

/**
 * Issue 29: ioredis's pipelines copied every script of their connection (BullMQ's 52, two methods
 * each) onto each new pipeline, one per event-loop turn on an auto-pipelined connection. The
 * connector's connections make pipelines that find those scripts on their class instead: nothing is
 * copied, and scripts defined before and after the connection's first pipeline run through it.
 */
describe('pipelines of a connection with many scripts', () => {
  const prefix = `test-light-pipelines-${randomUUID()}`;
  const redis = connectRedis({ url: REDIS_URL, cluster: false } satisfies RedisTarget, 'ledger', pino({ level: 'silent' }));
  const queue = new Queue('documents', { connection: redis, prefix });
  afterAll(async () => {
    await queue.close();
    const cleaner = new IORedis(REDIS_URL);
    const keys = await cleaner.keys(`${prefix}:*`);
    if (keys.length > 0) await cleaner.del(...keys);
    await cleaner.quit();
    redis.disconnect();
  });

  it('copies no script onto a new pipeline, and runs scripts defined before and after it, auto-pipelined or not', async () => {
    await queue.waitUntilReady();
    const scripts = Object.keys((redis as unknown as { scriptsSet: Record<string, unknown> }).scriptsSet);
    expect(scripts.length).toBeGreaterThan(40); // BullMQ's, defined on the connection it was given
    const early = redis.pipeline();
    expect(Object.keys(early).filter((name) => scripts.includes(name))).toEqual([]);
    redis.defineCommand('lightPipelinesEcho', { numberOfKeys: 1, lua: `return {KEYS[1], ARGV[1]}` });
    const history = new OrderHistory(redis, prefix); // defines its story script on the connection
    // An explicit pipeline, then three script calls in one turn (one auto-pipeline), BullMQ's among them.
    const echo = (target: unknown) => (target as { lightPipelinesEcho: (key: string, value: string) => unknown }).lightPipelinesEcho;
    const pipeline = redis.pipeline();
    echo(pipeline).call(pipeline, `${prefix}:a`, 'one');
    expect(await pipeline.exec()).toEqual([[null, [`${prefix}:a`, 'one']]]);
    const [echoed, , counts] = await Promise.all([
      echo(redis).call(redis, `${prefix}:b`, 'two'),
      history.add('loja1', 7, { kind: 'received', via: 'webhook' }, 1_000),
      queue.getJobCounts('wait', 'failed'),
    ]);
    expect(echoed).toEqual([`${prefix}:b`, 'two']);
    expect(counts).toEqual({ wait: 0, failed: 0 });
    expect(await history.of('loja1', 7)).toEqual([{ kind: 'received', via: 'webhook', at: 1_000 }]);
  });
});
