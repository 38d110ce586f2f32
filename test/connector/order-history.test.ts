import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { HISTORY_LIMIT, OrderHistory } from '../../connector/history/order-history';
import { eventually, REDIS_URL } from './support/harness';

/**
 * The order's story (connector/history/order-history.ts) on a real Redis: events of several orders
 * written in one MULTI, read back oldest first by time, capped, kept for the retention, and the
 * document numbers found again whatever their case.
 */
describe("an order's story in Redis", () => {
  const redis = new Redis(REDIS_URL);
  const prefix = `test-history-${randomUUID()}`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('one write for the events of two orders; each order reads its own, oldest first by time, the same instant in written order', async () => {
    const history = new OrderHistory(redis, prefix);
    const calls: string[] = [];
    const spy = redis.multi.bind(redis);
    redis.multi = ((...args: Parameters<typeof spy>) => {
      calls.push('multi');
      return spy(...args);
    }) as typeof redis.multi;
    try {
      await history.record([
        { tenant: 'loja1', orderId: 1, event: { kind: 'attempt', at: 2_000, purpose: 'invoice', step: 'close', ok: true } },
        { tenant: 'loja1', orderId: 2, event: { kind: 'received', at: 1_500, via: 'sweep', status: 'processing' } },
        { tenant: 'loja1', orderId: 1, event: { kind: 'received', at: 1_000, via: 'webhook' } },
        { tenant: 'loja1', orderId: 1, event: { kind: 'note', at: 2_000, purpose: 'invoice', customer: false, text: 'second at the same instant' } },
      ]);
    } finally {
      redis.multi = spy;
    }
    expect(calls).toEqual(['multi']);
    expect((await history.of('loja1', 1)).map((e) => e.kind)).toEqual(['received', 'attempt', 'note']);
    expect(await history.of('loja1', 2)).toEqual([{ kind: 'received', at: 1_500, via: 'sweep', status: 'processing' }]);
  });

  it("a record's stories are one script call (issue 29: the commands per order): each order's events one RPUSH in the order given, its retention renewed, no LTRIM below the limit", async () => {
    // The ledger's connection is auto-pipelined; Redis's MONITOR shows what the client sent and what the script ran.
    const piped = new Redis(REDIS_URL, { enableAutoPipelining: true });
    const history = new OrderHistory(piped, prefix, 60_000);
    await history.record([{ tenant: 'loja1', orderId: 7, event: { kind: 'received', at: 2_000, via: 'webhook' } }]); // the script known to Redis
    const monitor = await redis.monitor();
    const sent: string[] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (args.some((arg) => arg.startsWith(`${prefix}:`))) sent.push(`${source.startsWith('lua') ? 'lua ' : ''}${args[0]?.toLowerCase()}`);
    });
    try {
      await history.record([
        { tenant: 'loja1', orderId: 5, event: { kind: 'attempt', at: 3_000, purpose: 'invoice', step: 'draft', ok: true } },
        { tenant: 'loja1', orderId: 6, event: { kind: 'received', at: 3_000, via: 'webhook' } },
        { tenant: 'loja1', orderId: 5, event: { kind: 'attempt', at: 3_000, purpose: 'invoice', step: 'close', ok: true } },
        { tenant: 'loja1', orderId: 5, event: { kind: 'document', at: 3_000, purpose: 'invoice', documentId: 9, number: 'FT A/9' } },
      ]);
      // Redis runs a connection's commands in order: once MONITOR shows this one, it has shown the record's.
      await piped.exists(`${prefix}:end-of-record`);
      await eventually('the end of the record in MONITOR', () => sent.includes('exists'));
    } finally {
      piped.disconnect();
      monitor.disconnect();
    }
    expect(sent.filter((line) => !line.startsWith('lua')).sort()).toEqual(['evalsha', 'exists', 'hset']);
    expect(sent.filter((line) => line.startsWith('lua'))).toEqual(['lua rpush', 'lua pexpire', 'lua rpush', 'lua pexpire']);
    const reader = new OrderHistory(redis, prefix);
    const story = await reader.of('loja1', 5);
    expect(story.map((e) => (e.kind === 'attempt' ? e.step : e.kind))).toEqual(['draft', 'close', 'document']);
    expect(await reader.of('loja1', 6)).toEqual([{ kind: 'received', at: 3_000, via: 'webhook' }]);
    expect(await reader.orderOfNumber('loja1', 'FT A/9')).toBe(5);
  });

  it('a text longer than the schema allows is cut when written, so it reads back; a stored line that does not parse is skipped on reading', async () => {
    const history = new OrderHistory(redis, prefix);
    await history.record([
      { tenant: 'loja1', orderId: 3, event: { kind: 'note', customer: false, text: 'x'.repeat(5_000) } },
      { tenant: 'loja1', orderId: 3, event: { kind: 'problem', purpose: 'invoice', problem: '{"code":"no-invoice"}' } },
    ]);
    await redis.rpush(history.key('loja1', 3), '{not json', JSON.stringify({ kind: 'from-a-newer-version', at: 1 }));
    const story = await history.of('loja1', 3);
    expect(story.map((e) => e.kind)).toEqual(['note', 'problem']);
    expect(story[0].kind === 'note' && story[0].text).toBe('x'.repeat(4_000));
  });

  it(`keeps the last ${HISTORY_LIMIT} events, expires after the retention, and finds an order by its document number in any case`, async () => {
    const history = new OrderHistory(redis, prefix, 60_000);
    await history.record(Array.from({ length: HISTORY_LIMIT + 5 }, (_, i) => ({ tenant: 'loja1', orderId: 4, event: { kind: 'received' as const, at: i, via: 'webhook' as const } })));
    await history.add('loja1', 4, { kind: 'document', at: 10_000, purpose: 'invoice', documentId: 77, number: 'FR A/12', type: 'T', total: '12.30' });
    const events = await history.of('loja1', 4);
    expect(events).toHaveLength(HISTORY_LIMIT);
    expect(events[0]).toMatchObject({ kind: 'received', at: 6 });
    expect(events.at(-1)).toMatchObject({ kind: 'document', number: 'FR A/12' });
    const ttl = await redis.pttl(history.key('loja1', 4));
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await history.orderOfNumber('loja1', ' fr a/12 ')).toBe(4);
    expect(await history.orderOfNumber('loja2', 'FR A/12')).toBeNull();
  });
});
