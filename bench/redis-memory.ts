/**
 * Redis memory per order, measured: a Redis of its own (so nothing else moves the figures), the
 * connector, the sandbox and the fake shop in this process; N orders delivered and written back;
 * then `INFO memory` and `MEMORY USAGE` of every key under the prefix, grouped by kind.
 *   node -r ts-node/register/transpile-only bench/redis-memory.ts [orders]
 */
import IORedis from 'ioredis';
import { eventually, portugueseOrder, startHarness } from '../test/connector/support/harness';
import { ownRedisServer } from '../test/connector/support/redis-servers';

async function main(): Promise<void> {
  const orders = Number(process.argv[2] ?? 2_000);
  const server = await ownRedisServer(['--appendonly', 'no']);
  const url = `redis://127.0.0.1:${server.port}`;
  const redis = new IORedis(url);
  try {
    const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);
    const h = await startHarness({ redisUrl: url, pipeline: { concurrency: 64 } });
    const before = await usedMemory();
    const started = Date.now();
    const ids: number[] = [];
    for (let i = 0; i < orders; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, orders - i) }, async () => {
          const order = portugueseOrder();
          ids.push(Number(order.id));
          const answer = await h.deliver(order);
          if (answer.status !== 202) throw new Error(`webhook answered ${answer.status}`);
        }),
      );
    }
    await eventually(
      'every order written back',
      async () => {
        const states = await Promise.all(ids.slice(-200).map((id) => redis.hget(`${h.prefix}:ledger:shop1:${id}:invoice`, 'state')));
        const waiting = await h.connector?.queue.getJobCounts('waiting', 'active', 'delayed');
        return states.every((s) => s === 'written-back') && Object.values(waiting ?? {}).every((n) => n === 0);
      },
      30 * 60_000,
    );
    await h.woo.settle();
    const drained = Date.now() - started;
    const after = await usedMemory();
    const groups = new Map<string, { keys: number; bytes: number }>();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${h.prefix}:*`, 'COUNT', 1_000);
      cursor = next;
      for (const key of keys) {
        const kind = key
          .slice(h.prefix.length + 1)
          .replace(/:\d+(:|$)/g, ':<n>$1')
          .replace(/^ledger:shop1:<n>:.*$/, 'ledger:<tenant>:<order>:<purpose>');
        const bytes = Number(await redis.memory('USAGE', key));
        const group = groups.get(kind) ?? { keys: 0, bytes: 0 };
        group.keys += 1;
        group.bytes += bytes;
        groups.set(kind, group);
      }
    } while (cursor !== '0');
    const total = [...groups.values()].reduce((sum, g) => sum + g.bytes, 0);
    const ttl = await redis.pttl(`${h.prefix}:ledger:shop1:${ids[0]}:invoice`);
    process.stdout.write(`orders: ${orders}, drained in ${(drained / 1000).toFixed(1)} s\n`);
    process.stdout.write(`INFO used_memory: +${after - before} bytes (${((after - before) / orders).toFixed(0)} per order)\n`);
    process.stdout.write(`MEMORY USAGE of the prefix's keys: ${total} bytes (${(total / orders).toFixed(0)} per order)\n`);
    for (const [kind, group] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes)) {
      process.stdout.write(`  ${kind.padEnd(40)} ${String(group.keys).padStart(7)} keys ${String(group.bytes).padStart(10)} bytes\n`);
    }
    process.stdout.write(`a written-back ledger expires in ${(ttl / 86_400_000).toFixed(2)} days\n`);
    await h.close();
  } finally {
    redis.disconnect();
    await server.destroy();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
