import type { LedgerEntry } from '../../connector/core/ledger';
import { buildRefund, eventually, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { sendWooWebhook } from '../support/fake-woocommerce';
import { wooRefundJson } from '../support/payloads';

/** Issue 8.1: a document is dated the day it is issued, so a backlog never fails on the series' date order. */
const lisbonToday = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());
const daysAgo = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 19);

async function ledgerOf(h: Harness, orderId: number): Promise<Record<string, LedgerEntry>> {
  return (await h.connector?.ledger.forOrder('shop1', orderId)) ?? {};
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
    // Issued after its deadline (paid before delivery: due that day, CIVA art. 36(1)(c)): said on the order, with the article.
    const oldest = Number(orders[3].id);
    await h.woo.settle();
    expect(h.woo.notes(oldest).some((n) => n.note.includes('after its deadline') && n.note.includes('CIVA art. 36(1)'))).toBe(true);

    h.woo.addRefund(oldest, wooRefundJson(buildRefund(h.woo.order(oldest), { id: 990, items: [{ index: 0, quantity: 1 }], dateGmt: daysAgo(20) })));
    await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(oldest) });
    await eventually('the credit note written back', async () => (await ledgerOf(h, oldest))['credit-note-990']?.state === 'written-back');
    const credit = (await h.documentsOf(oldest)).find((d) => d.document.Type === 'C');
    expect(credit?.document.Date).toBe(today);
  });
});
