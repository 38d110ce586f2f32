import IORedis from 'ioredis';
import type { LedgerEntry } from '../../connector/core/ledger';
import { ConnectorMetrics } from '../../connector/core/metrics';
import { shopToday } from '../../connector/pipeline/issue-date';
import { buildTenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { RedisClock } from '../../connector/core/redis-connection';
import { startConnector, type RunningConnector } from '../../connector/main/runtime';
import type { SweepReport } from '../../connector/core/sweep-report';
import { eventually, portugueseOrder, quietLogger, REDIS_URL, startHarness } from './support/harness';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };
const MINUTE = 60_000;
const DAY = 86_400_000;

/** Redis's TIME in ms. */
async function redisNow(redis: IORedis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
}

describe("one clock for every worker: Redis's TIME", () => {
  it('a process clock a day ahead or five minutes behind reads the same time (within the round trip)', async () => {
    const redis = new IORedis(REDIS_URL);
    try {
      for (const skew of [DAY, -5 * MINUTE]) {
        const clock = new RedisClock(redis, () => Date.now() + skew);
        const started = Date.now();
        await clock.sync();
        // The offset is taken against the middle of the sync's round trip: off by half of it at most.
        const error = (Date.now() - started) / 2 + 1;
        const before = await redisNow(redis);
        const read = clock.now();
        const after = await redisNow(redis);
        expect(read).toBeGreaterThanOrEqual(before - error);
        expect(read).toBeLessThanOrEqual(after + error);
      }
    } finally {
      await redis.quit();
    }
  });

  it("two workers, one a day fast, one 5 minutes slow: documents dated today, Get Document never before the service's wait, attention scores on Redis's time", async () => {
    // Any Get Document before the service numbered the document goes to a person (finalizePolls 0),
    // so an early poll by the fast worker of the slow worker's document would show on the attention list.
    const wait = 1_500;
    const h = await startHarness({ role: 'serve', sandbox: { finalizeDelayMs: wait }, pipeline: { finalizeDelayMs: wait, minFinalizeDelayMs: wait, finalizePolls: 0, concurrency: 2 } });
    const workers: RunningConnector[] = [];
    try {
      for (const skew of [DAY, -5 * MINUTE]) {
        workers.push(await startConnector(h.config, { role: 'work', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }), localClock: () => Date.now() + skew }));
      }
      const redisBefore = new IORedis(REDIS_URL);
      const startedAt = await redisNow(redisBefore);
      await redisBefore.quit();
      const ids: number[] = [];
      for (let i = 0; i < 8; i++) {
        const order = portugueseOrder();
        ids.push(Number(order.id));
        expect((await h.deliver(order)).status).toBe(202);
      }
      // One order the mapping refuses, flagged by whichever worker takes it.
      const refused = portugueseOrder({ currency: 'USD' });
      expect((await h.deliver(refused)).status).toBe(202);
      const entries: LedgerEntry[] = [];
      for (const id of ids) {
        entries.push(
          await eventually(`order ${id} written back`, async () => {
            const invoice = await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' });
            return invoice?.state === 'written-back' ? invoice : undefined;
          }, 30_000),
        );
      }
      const today = shopToday(Date.now(), buildTenantRuntime(h.config.tenants[0]).mapping.shopTimeZone);
      for (const entry of entries) expect(entry.documentDate).toBe(today);
      for (const id of ids) expect((await h.documentsOf(id)).map((d) => d.document.Date)).toEqual([today]);
      for (const entry of entries) expect((entry.finalizedAt ?? 0) - (entry.createdAt ?? 0)).toBeGreaterThanOrEqual(wait);
      const attention = await eventually('the refused order flagged', async () => {
        const list = (await (await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: ADMIN })).json()) as { orderId: number; ledger: LedgerEntry }[];
        return list.length > 0 ? list : undefined;
      });
      expect(attention.map((a) => a.orderId)).toEqual([Number(refused.id)]);
      // Its score (the alerts' watermark compares these) is Redis's time, not a clock 5 minutes behind or a day ahead.
      const redis = new IORedis(REDIS_URL);
      const [member, score] = await redis.zrange(`${h.prefix}:attention`, 0, 0, 'WITHSCORES');
      const endedAt = await redisNow(redis);
      await redis.quit();
      expect(member).toBe(`shop1:${String(refused.id)}:invoice`);
      // Between the test's start and now on Redis's clock (a second either way for the workers' sync), however long that took.
      expect(Number(score)).toBeGreaterThanOrEqual(startedAt - 1_000);
      expect(Number(score)).toBeLessThanOrEqual(endedAt + 1_000);
    } finally {
      for (const worker of workers) await worker.close();
      await h.close();
    }
  }, 60_000);
});

describe("the sweep's cursor follows the shop's clock", () => {
  it('a shop clock 10 minutes behind: an order modified after a sweep (its webhook lost) is found by the next one', async () => {
    const h = await startHarness({ woo: { now: () => new Date(Date.now() - 10 * MINUTE) } });
    const sweepNow = async (): Promise<SweepReport> => ((await (await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ tenant: 'shop1' }) })).json()) as SweepReport[])[0];
    try {
      const first = h.woo.putOrder(portugueseOrder());
      h.woo.editOrder(Number(first.id), {}); // stamped by the shop's clock
      expect((await sweepNow()).enqueued).toContain(`invoice.shop1.${String(first.id)}`);
      await eventually('the first order written back', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: Number(first.id), purpose: 'invoice' }))?.state === 'written-back');
      // Paid after the sweep; WooCommerce never delivered its webhook. Its stamp is 10 minutes behind ours.
      const lost = h.woo.putOrder(portugueseOrder());
      h.woo.editOrder(Number(lost.id), {});
      expect((await sweepNow()).enqueued).toContain(`invoice.shop1.${String(lost.id)}`);
      await eventually('the lost order written back', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: Number(lost.id), purpose: 'invoice' }))?.state === 'written-back');
    } finally {
      await h.close();
    }
  }, 40_000);
});
