import IORedis from 'ioredis';
import { META } from '../../connector/shop/order-meta';
import { sendWooWebhook } from '../support/fake-woocommerce';
import { buildRefund, eventually, portugueseOrder, REDIS_URL, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { wooRefundJson } from '../support/payloads';

const DAY_MS = 86_400_000;

describe('retention: finished ledgers and failed jobs expire; exactly-once then rests on the order itself', () => {
  let h: Harness;
  let redis: IORedis;
  beforeAll(async () => {
    h = await startHarness();
    redis = new IORedis(REDIS_URL);
  });
  afterAll(async () => {
    redis.disconnect();
    await h.close();
  });

  const ledgerKeys = (id: number, purpose: string) => [`${h.prefix}:ledger:shop1:${id}:${purpose}`, `${h.prefix}:ledger-index:shop1:${id}`];

  it('a written-back ledger expires after retention.finishedLedgerDays (90 by default); one in flight or needing a person never does', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('written back', async () => (await h.connector?.ledger.forOrder('shop1', id))?.invoice?.state === 'written-back');
    const [entryKey, indexKey] = ledgerKeys(id, 'invoice');
    for (const key of [entryKey, indexKey]) {
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(89 * DAY_MS);
      expect(ttl).toBeLessThanOrEqual(90 * DAY_MS);
    }
    // Back in flight (a retry, a resume): the countdown stops.
    const ledger = h.connector?.ledger;
    if (!ledger) throw new Error('no connector');
    const other = { tenant: 'shop1', orderId: 999_001, purpose: 'invoice' };
    await ledger.record(other, { state: 'written-back' });
    expect(await redis.pttl(ledgerKeys(999_001, 'invoice')[0])).toBeGreaterThan(0);
    await ledger.record(other, { state: 'duplicate-unknown-id' });
    expect(await redis.pttl(ledgerKeys(999_001, 'invoice')[0])).toBe(-1);
    expect(await redis.pttl(ledgerKeys(999_001, 'invoice')[1])).toBe(-1);
    // A step that records no state keeps whatever the entry had.
    await ledger.record(other, { detail: 'x' });
    expect(await redis.pttl(ledgerKeys(999_001, 'invoice')[0])).toBe(-1);
  });

  it('failed document jobs are kept 30 days or 100,000 jobs by default (BullMQ removeOnFail); completed ones leave at once', () => {
    expect(h.connector?.queue.defaultJobOptions).toMatchObject({ removeOnComplete: true, removeOnFail: { age: 30 * 86_400, count: 100_000 } });
  });

  it('a late delivery of an old order whose ledger expired issues nothing: the worker reads our meta on the order', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('written back', async () => (await h.connector?.ledger.forOrder('shop1', id))?.invoice?.state === 'written-back');
    const number = h.woo.meta(id, META.documentNumber);
    await h.woo.settle();
    const notes = h.woo.notes(id).length;

    // Ninety days later the ledger is gone; WooCommerce delivers a copy of the order taken before
    // the write-back (a delayed retry), which carries none of our meta, so the route plans an invoice.
    await redis.del(...ledgerKeys(id, 'invoice'));
    const stale = await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: order });
    expect(stale.status).toBe(202);
    const restored = await eventually('the ledger rebuilt from the order', async () => {
      const entry = (await h.connector?.ledger.forOrder('shop1', id))?.invoice;
      return entry?.state ? entry : undefined;
    });
    expect(restored).toMatchObject({ state: 'written-back', documentNumber: number, detail: expect.stringContaining('restored from the meta on the order') });
    expect(await h.documentsOf(id)).toHaveLength(1);
    await h.woo.settle();
    expect(h.woo.notes(id)).toHaveLength(notes);

    // A refund months later: the invoice's ledger is gone again, the credit note still references it.
    await redis.del(...ledgerKeys(id, 'invoice'));
    h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 951, items: [{ index: 0, quantity: 1 }], reason: 'Devolvido' })));
    expect((await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(id) })).status).toBe(202);
    await eventually('credit note written back', async () => (await h.connector?.ledger.forOrder('shop1', id))?.['credit-note-951']?.state === 'written-back', 30_000);
    const docs = await h.documentsOf(id);
    expect(docs).toHaveLength(2);
    expect(docs.find((d) => d.document.Type === 'C')?.document.DocumentReference).toBe(number);
  }, 40_000);
});
