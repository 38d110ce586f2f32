import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Ledger } from '../../connector/core/ledger';

/**
 * Issue 29 (what an order sends to Redis): a ledger record sends the purpose once, and the script
 * sets the entry's `purpose` field from it (the pair 'purpose', <purpose> is not sent again with
 * every record); the entry, its index and its retention read as before.
 */
describe('a ledger record in Redis', () => {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const prefix = `test-ledger-record-${randomUUID()}`;
  const ledger = new Ledger(redis, prefix, { finishedTtlMs: 60_000 });
  const sent: string[][] = [];
  const evalsha = redis.evalsha.bind(redis) as (...args: (string | number)[]) => Promise<unknown>;
  (redis as unknown as { evalsha: typeof evalsha }).evalsha = (...args) => {
    sent.push(args.map(String));
    return evalsha(...args);
  };
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('sends the purpose once per record and compare-and-set; the entry holds it, the index lists it, the retention follows the state', async () => {
    const ref = { tenant: 'loja1', orderId: 41, purpose: 'credit-note-7' };
    await ledger.record(ref, { state: 'drafting', draftAttempt: 1 }, 1_000);
    expect(await ledger.recordIf(ref, 'draftAttempt', 1, { state: 'draft', documentId: 9 }, 2_000)).toBe(true);
    await ledger.record(ref, { state: 'written-back' }, 3_000);
    for (const args of sent) expect(args.filter((arg) => arg === 'credit-note-7')).toEqual(['credit-note-7']);
    expect(sent.flat()).not.toContain('purpose');
    expect(await ledger.get(ref)).toEqual({ purpose: 'credit-note-7', state: 'written-back', draftAttempt: 1, documentId: 9, updatedAt: 3_000 });
    expect(Object.keys(await ledger.forOrder('loja1', 41))).toEqual(['credit-note-7']);
    expect(await redis.pttl(ledger.key(ref))).toBeGreaterThan(0);
    expect(await redis.pttl(`${prefix}:ledger-index:loja1:41`)).toBeGreaterThan(0);
    await ledger.record(ref, { state: 'alert-no-number' }, 4_000);
    expect(await redis.pttl(ledger.key(ref))).toBe(-1);
    expect(await redis.pttl(`${prefix}:ledger-index:loja1:41`)).toBe(-1);
  });
});

describe('the recent documents list', () => {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const prefix = `test-ledger-recent-${randomUUID()}`;
  const ledger = new Ledger(redis, prefix);
  const DAY = 86_400_000;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('drops what is older than 30 days with a write-back at most once a minute per tenant, not with each (issue 29)', async () => {
    let trims = 0;
    const zremrangebyscore = redis.zremrangebyscore.bind(redis) as unknown as (...args: (string | number)[]) => Promise<number>;
    (redis as unknown as { zremrangebyscore: typeof zremrangebyscore }).zremrangebyscore = (...args) => {
      trims += 1;
      return zremrangebyscore(...args);
    };
    const t = 100 * DAY;
    const ref = (orderId: number) => ({ tenant: 'loja1', orderId, purpose: 'invoice' });
    await redis.zadd(`${prefix}:recent:loja1`, t - 31 * DAY, '1:invoice', t - 29 * DAY, '2:invoice');
    await ledger.markWrittenBack(ref(3), t);
    expect((await ledger.recent('loja1', 10)).map((item) => item.orderId)).toEqual([3, 2]);
    await redis.zadd(`${prefix}:recent:loja1`, t - 31 * DAY, '4:invoice');
    for (let n = 5; n < 10; n++) await ledger.markWrittenBack(ref(n), t + n * 1_000);
    expect(trims).toBe(1);
    expect(await ledger.recentCount('loja1')).toBe(8); // 4 waits for the next trim
    await ledger.markWrittenBack(ref(10), t + 61_000);
    expect(trims).toBe(2);
    expect((await ledger.recent('loja1', 10)).map((item) => item.orderId)).toEqual([10, 9, 8, 7, 6, 5, 3, 2]);
    await ledger.markWrittenBack({ tenant: 'loja2', orderId: 1, purpose: 'invoice' }, t + 62_000);
    expect(trims).toBe(3); // another tenant's list is trimmed on its own first write-back
  });
});
