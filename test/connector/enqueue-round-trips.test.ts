import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import pino from 'pino';
import { connectRedis, type RedisTarget } from '../../connector/core/redis-connection';
import type { DocumentJobData } from '../../connector/core/jobs';
import { BatchingEnqueuer, RedisUnavailableError } from '../../connector/ingest/enqueuer';
import { OrderHistory } from '../../connector/history/order-history';
import { REDIS_URL } from './support/harness';

/**
 * What a batch of webhook deliveries costs in Redis round trips (issue 29): the jobs' add, the check
 * of the failed list (a failed job of the same id is resumed, not swallowed) and the orders' story
 * leave the ingest connection in at most two socket writes, and the deliveries wait for one round trip
 * (the check used to wait for the add's answer: two round trips, a third write when the answer came
 * back before the story's batch left).
 */
describe('a batch of deliveries in Redis', () => {
  const prefix = `test-enqueue-${randomUUID()}`;
  const redis = connectRedis({ url: REDIS_URL, cluster: false } satisfies RedisTarget, 'ingest', pino({ level: 'silent' }));
  const queue = new Queue<DocumentJobData>('documents', { connection: redis, prefix });
  afterAll(async () => {
    await queue.close();
    const cleaner = new IORedis(REDIS_URL);
    const keys = await cleaner.keys(`${prefix}:*`);
    if (keys.length > 0) await cleaner.del(...keys);
    await cleaner.quit();
    redis.disconnect();
  });

  const item = (orderId: number) => ({
    name: 'invoice',
    data: { tenant: 'loja1', orderId, kind: 'invoice', step: 'issue', polls: 0, seenAt: 1 } as DocumentJobData,
    opts: { jobId: `invoice.loja1.${orderId}` },
  });

  it('the add, the failed-list check and the story of two concurrent deliveries: the failed list asked without waiting for the add, at most two socket writes, the jobs stored when answered', async () => {
    await queue.waitUntilReady();
    const history = new OrderHistory(redis, prefix);
    const enqueuer = new BatchingEnqueuer(queue, redis, 5_000, history);
    await enqueuer.add([item(1)], 'processing'); // the connection and BullMQ's scripts are ready
    const socket = (redis as unknown as { stream: Socket }).stream;
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    let writes = 0;
    (socket as unknown as { write: typeof write }).write = (...args) => {
      writes += 1;
      return write(...args);
    };
    // What happens in which order: the failed-list check is asked before the add has answered.
    const seen: string[] = [];
    const addBulk = queue.addBulk.bind(queue);
    queue.addBulk = async (...args) => {
      const jobs = await addBulk(...args);
      seen.push('add answered');
      return jobs;
    };
    const zmscore = redis.zmscore.bind(redis) as (...args: string[]) => Promise<(string | null)[]>;
    (redis as unknown as { zmscore: typeof zmscore }).zmscore = (...args) => {
      seen.push('failed list asked');
      return zmscore(...args);
    };
    let results;
    try {
      results = await Promise.all([enqueuer.add([item(2)], 'processing'), enqueuer.add([item(3)], 'processing')]);
    } finally {
      (socket as unknown as { write: typeof write }).write = write;
      queue.addBulk = addBulk;
      delete (redis as unknown as { zmscore?: unknown }).zmscore;
    }
    expect(seen).toEqual(['failed list asked', 'add answered']);
    expect(results).toEqual([[{ jobId: 'invoice.loja1.2', kind: 'invoice', outcome: 'queued' }], [{ jobId: 'invoice.loja1.3', kind: 'invoice', outcome: 'queued' }]]);
    expect(writes).toBeLessThanOrEqual(2);
    expect(await queue.getJobState('invoice.loja1.2')).toBe('waiting');
    expect(await queue.getJobState('invoice.loja1.3')).toBe('waiting');
    expect((await history.of('loja1', 3)).map((e) => e.kind)).toEqual(['received']);
  });

  it("with BullMQ's queue on a connection of its own (as the connector wires it): one socket write on each per batch, the enqueuer's pipelines without BullMQ's scripts, and either connection away refuses the add and the probe", async () => {
    const queueRedis = connectRedis({ url: REDIS_URL, cluster: false } satisfies RedisTarget, 'ingest', pino({ level: 'silent' }));
    const ingest = connectRedis({ url: REDIS_URL, cluster: false } satisfies RedisTarget, 'ingest', pino({ level: 'silent' }));
    const own = new Queue<DocumentJobData>('documents', { connection: queueRedis, prefix });
    try {
      await own.waitUntilReady();
      const enqueuer = new BatchingEnqueuer(own, ingest, 5_000, new OrderHistory(ingest, prefix), Date.now, queueRedis);
      await enqueuer.add([item(10)], 'processing'); // both connections and the scripts ready
      await enqueuer.probe();
      const counted = (client: typeof redis) => {
        const socket = (client as unknown as { stream: Socket }).stream;
        const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
        const counter = { writes: 0, restore: () => void ((socket as unknown as { write: typeof write }).write = write) };
        (socket as unknown as { write: typeof write }).write = (...args) => {
          counter.writes += 1;
          return write(...args);
        };
        return counter;
      };
      const [onQueue, onOwn] = [counted(queueRedis), counted(ingest)];
      try {
        await Promise.all([enqueuer.add([item(11)], 'processing'), enqueuer.add([item(12)], 'processing')]);
      } finally {
        onQueue.restore();
        onOwn.restore();
      }
      expect([onQueue.writes, onOwn.writes]).toEqual([1, 1]);
      // BullMQ defines its scripts on its own connection only: ioredis copies each into every pipeline built there.
      const bullScripts = (client: typeof redis) => Object.keys((client as unknown as { scriptsSet: Record<string, unknown> }).scriptsSet).filter((name) => name.startsWith('addStandardJob'));
      expect(bullScripts(queueRedis)).toHaveLength(1);
      expect(bullScripts(ingest)).toEqual([]);
      expect(await own.getJobState('invoice.loja1.12')).toBe('waiting');

      queueRedis.disconnect();
      await expect(enqueuer.add([item(13)], 'processing')).rejects.toThrow(RedisUnavailableError);
      await expect(enqueuer.probe()).rejects.toThrow(RedisUnavailableError);
    } finally {
      await own.close().catch(() => undefined);
      queueRedis.disconnect();
      ingest.disconnect();
    }
  });
});

