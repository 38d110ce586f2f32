import { MagniFinanceClient } from '../../client/rest-client';
import type { LedgerEntry } from '../../connector/ledger';
import { addDays } from '../../webhooks/woocommerce/shop-date';
import { documentForOrder } from '../../webhooks/woocommerce/order-to-document';
import { TEST_ACCOUNT } from '../support/sandbox';
import { buildRefund, eventually, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { sendWooWebhook } from '../support/fake-woocommerce';

/** Issue 8.1: a document is dated the day it is issued, so a backlog never fails on the series' date order. */
const lisbonToday = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());
const daysAgo = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 19);

async function ledgerOf(h: Harness, orderId: number): Promise<Record<string, LedgerEntry>> {
  return (await h.connector?.ledger.forOrder('shop1', orderId)) ?? {};
}

/** A closed invoice made "in the back-office" on the sandbox, dated `date`, in the connector's series. */
async function backOfficeInvoice(h: Harness, date: string): Promise<void> {
  const client = new MagniFinanceClient({ email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: h.sandbox.baseUrl, retry: false });
  const { request } = documentForOrder(portugueseOrder() as never, undefined, { issueDate: date });
  await client.createDocument({ ...request, Document: { ...request.Document, ExternalId: `back-office-${date}` } });
}

describe('CIVA art. 36(1)(a): documents are dated the day they are issued, whatever the age or order of the orders', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('orders paid 3 weeks, 2 weeks, 1 week and 1 day ago, delivered newest first, are all invoiced today; the refund of the oldest too', async () => {
    const ages = [1, 7, 14, 21];
    const orders = ages.map((age) => portugueseOrder({ datePaidGmt: daysAgo(age), dateCreatedGmt: daysAgo(age) }));
    for (const order of orders) expect((await h.deliver(order)).status).toBe(202);
    const today = lisbonToday();
    for (const [i, order] of orders.entries()) {
      const id = Number(order.id);
      const entry = await eventually(`order ${id} written back`, async () => {
        const invoice = (await ledgerOf(h, id)).invoice;
        return invoice?.state === 'written-back' ? invoice : undefined;
      });
      expect(entry.documentDate).toBe(today);
      const [doc] = await h.documentsOf(id);
      expect(doc.document.Date).toBe(today);
      expect(doc.document.Description).toBe(`Encomenda #${id} de ${daysAgo(ages[i]).slice(0, 10)}`);
    }
    // More than 5 business days late: said on the order, with the article.
    const oldest = Number(orders[3].id);
    await h.woo.settle();
    expect(h.woo.notes(oldest).some((n) => n.note.includes('more than 5 business days later (CIVA art. 36(1)(a))'))).toBe(true);

    h.woo.addRefund(oldest, buildRefund(h.woo.order(oldest) as Record<string, unknown>, { id: 990, items: [{ index: 0, quantity: 1 }], dateGmt: daysAgo(20) }) as never);
    await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(oldest) });
    await eventually('the credit note written back', async () => (await ledgerOf(h, oldest))['credit-note-990']?.state === 'written-back');
    const credit = (await h.documentsOf(oldest)).find((d) => d.document.Type === 'C');
    expect(credit?.document.Date).toBe(today);
  });

  it('a back-office invoice dated tomorrow in the same series: the next order is dated tomorrow too, never refused for good', async () => {
    const tomorrow = addDays(lisbonToday(), 1);
    await backOfficeInvoice(h, tomorrow);
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    const entry = await eventually('written back', async () => {
      const invoice = (await ledgerOf(h, id)).invoice;
      return invoice?.state === 'written-back' ? invoice : undefined;
    });
    expect(entry.documentDate).toBe(tomorrow);
    expect(await h.documentsOf(id)).toHaveLength(1);
  });

  it('a back-office invoice dated 3 days ahead: the order waits for that day, visibly, with the reason and what to do', async () => {
    const ahead = addDays(lisbonToday(), 3);
    await backOfficeInvoice(h, ahead);
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    const entry = await eventually('flagged', async () => {
      const invoice = (await ledgerOf(h, id)).invoice;
      return invoice?.action ? invoice : undefined;
    });
    expect(entry.state).toBe('failed');
    expect(entry.detail).toContain(`dated ${ahead}, after today`);
    expect(entry.action).toContain(`issues this document on ${ahead} by itself`);
    expect(await h.connector?.queue.getJobState(`invoice.shop1.${id}`)).toBe('delayed');
    expect(await h.documentsOf(id)).toHaveLength(0);
    await eventually('the note on the order', () => h.woo.notes(id).some((n) => n.note.includes(`dated ${ahead}, after today`)));
  });
});
