import { Redis } from 'ioredis';
import { woocommerce } from '../../platforms/woocommerce/adapter';
import { randomUUID } from 'node:crypto';
import { ServiceValidationError } from '../../client/errors';
import { Ledger } from '../../connector/core/ledger';
import { invoiceRequest } from '../../connector/pipeline/document-requests';
import { issueDateFor, laterDateFromRefusal, msUntilShopDay, shopToday } from '../../connector/pipeline/issue-date';
import { buildTenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { META } from '../../connector/shop/order-meta';
import { addDays } from '../../law/shop-date';
import { eventually, portugueseOrder, startHarness } from './support/harness';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };
const DAY = 86_400_000;

describe('issue dates per series: today, never before the latest date of the series or the invoice', () => {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const prefix = `test-date-${randomUUID()}`;
  const ledger = new Ledger(redis, prefix);
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('today when the series is not ahead; the series date only moves forward', async () => {
    expect(await issueDateFor(ledger, 'shop1', 'T:default', '2026-11-23')).toEqual({ date: '2026-11-23' });
    expect(await ledger.advanceSeriesDate('shop1', 'T:default', '2026-11-20')).toBe('2026-11-20');
    expect(await ledger.advanceSeriesDate('shop1', 'T:default', '2026-11-18')).toBe('2026-11-20');
    expect(await issueDateFor(ledger, 'shop1', 'T:default', '2026-11-23')).toEqual({ date: '2026-11-23' });
    await ledger.advanceSeriesDate('shop1', 'T:default', '2026-11-25');
    expect(await issueDateFor(ledger, 'shop1', 'T:default', '2026-11-23')).toEqual({ date: '2026-11-25', notBefore: '2026-11-25' });
    expect(await issueDateFor(ledger, 'shop2', 'T:default', '2026-11-23')).toEqual({ date: '2026-11-23' });
  });

  it('a credit note is never dated before its invoice', async () => {
    expect(await issueDateFor(ledger, 'shop1', 'C:default', '2026-11-23', '2026-11-21')).toEqual({ date: '2026-11-23' });
    expect(await issueDateFor(ledger, 'shop1', 'C:default', '2026-11-23', '2026-11-24')).toEqual({ date: '2026-11-24', notBefore: '2026-11-24' });
  });

  it("MustBePosteriorToMostCurrentClosedDocument: the service's date when it names one, else tomorrow", () => {
    const refusal = (detail: string) =>
      new ServiceValidationError({ status: 200, requestId: null, errorHumanReadable: 'ValidationError', validationErrors: [{ Field: 'DocumentDetailDate', Type: 'MustBePosteriorToMostCurrentClosedDocument', Detail: detail, ElementNumber: null }], rawBody: '' });
    expect(laterDateFromRefusal(refusal('The date must be equal to or after 2026-11-27'), '2026-11-23')).toBe('2026-11-27');
    expect(laterDateFromRefusal(refusal('Change the series or the date'), '2026-11-23')).toBe('2026-11-24');
  });

  it("waits until the shop's calendar reaches the day, in the shop's zone", () => {
    const now = Date.parse('2026-11-23T22:30:00Z'); // 22:30 in Lisbon, 07:30 next day in Tokyo
    expect(msUntilShopDay('2026-11-23', now, 'Europe/Lisbon')).toBe(0);
    expect(msUntilShopDay('2026-11-24', now, 'Europe/Lisbon')).toBe(90 * 60_000 + 60_000);
    expect(shopToday(now, 'Asia/Tokyo')).toBe('2026-11-24');
  });
});

describe('orders dated over past weeks, delivered out of order, all get invoiced (dated the day they are issued)', () => {
  it('12 orders paid over 5 weeks in shuffled order: each written back, each dated today, the order day in the Description', async () => {
    const h = await startHarness({ pipeline: { finalizeDelayMs: 200, minFinalizeDelayMs: 200 } });
    try {
      const now = Date.now();
      const orders = Array.from({ length: 12 }, (_, i) => {
        const paid = new Date(now - (i * 3 + 1) * DAY).toISOString().slice(0, 19);
        return portugueseOrder({ datePaidGmt: paid, dateCreatedGmt: paid });
      });
      // Newest first, then interleaved: the order a backlog or a backfill would bring them in.
      const shuffled = [...orders.filter((_, i) => i % 2 === 0), ...orders.filter((_, i) => i % 2 === 1).reverse()];
      for (const order of shuffled) expect((await h.deliver(order)).status).toBe(202);
      const zone = h.config.tenants[0].settings.mapping.shopTimeZone ?? 'Europe/Lisbon';
      for (const order of orders) {
        const id = Number(order.id);
        await eventually(`order ${id} written back`, async () => (await h.connector?.ledger.forOrder('shop1', id))?.invoice?.state === 'written-back', 30_000);
        const [doc] = await h.documentsOf(id);
        expect(doc.document.Date).toBe(shopToday(Date.now(), zone));
        const paidDay = shopToday(Date.parse(`${String((order as { date_paid_gmt: string }).date_paid_gmt)}Z`), zone);
        expect(doc.document.Description).toBe(`Encomenda #${id} de ${paidDay}`);
        expect(h.woo.meta(id, META.documentNumber)).toBe(doc.number);
      }
    } finally {
      await h.close();
    }
  }, 60_000);

  it('a back-office document dated after today blocks the series: the order waits visibly, issued on that day, nothing fails', async () => {
    const h = await startHarness({ pipeline: { finalizeDelayMs: 200, minFinalizeDelayMs: 200 } });
    try {
      const runtime = buildTenantRuntime(h.config.tenants[0]);
      const zone = runtime.mapping.shopTimeZone;
      const ahead = addDays(shopToday(Date.now(), zone), 2);
      // Someone issues a document in the back-office, dated two days ahead, in the same series.
      const other = portugueseOrder();
      const built = invoiceRequest(woocommerce.saleOf(other, runtime.mapping), runtime.mapping, { issueDate: ahead });
      if (built.kind !== 'document') throw new Error('an invoice is a document');
      await runtime.invoicing.createDocument({ ...built.request, Document: { ...built.request.Document, ExternalId: 'back-office-1' } });

      const order = portugueseOrder();
      const id = Number(order.id);
      expect((await h.deliver(order)).status).toBe(202);
      const entry = await eventually('flagged', async () => {
        const invoice = (await h.connector?.ledger.forOrder('shop1', id))?.invoice;
        return invoice?.action ? invoice : undefined;
      }, 20_000);
      expect(entry.detail).toContain(`dated ${ahead}`);
      expect(entry.action).toContain(`on ${ahead} by itself`);
      // The draft is kept; nothing numbered, nothing failed for good.
      expect(entry.state).toBe('draft');
      expect(await h.documentsOf(id)).toHaveLength(0);
      // The ledger is told first, then the order's note, then the job waits: each awaited, none read at once.
      await eventually('the note on the order', () => (h.woo.notes(id).some((n) => n.note.includes(`dated ${ahead}`)) ? true : undefined), 20_000);
      const attention = (await (await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: ADMIN })).json()) as { orderId: number }[];
      expect(attention.map((a) => a.orderId)).toContain(id);
      const job = await eventually('the job to wait', async () => {
        const found = await h.connector?.queue.getJob(`invoice.shop1.${id}`);
        return (await found?.getState()) === 'delayed' ? found : undefined;
      }, 20_000);
      expect((job?.delay ?? 0) + (job?.timestamp ?? 0)).toBeGreaterThan(Date.now() + DAY);
      // The series is remembered: the next order waits without asking the service.
      expect(await h.connector?.ledger.seriesDate('shop1', 'T:default')).toBe(ahead);
    } finally {
      await h.close();
    }
  }, 60_000);
});
