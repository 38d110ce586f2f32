import type { LedgerEntry } from '../../connector/core/ledger';
import { META } from '../../connector/shop/order-meta';
import { sendWooWebhook } from '../support/fake-woocommerce';
import { buildRefund, eventually, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { wooRefundJson } from '../support/payloads';

/**
 * CIVA art. 29(7), 78(2): the connector reads the order's earlier refunds (GET orders/<id>/refunds)
 * so a credit note never credits more than the invoice net of the earlier ones; beyond is held.
 */
async function ledgerOf(h: Harness, orderId: number): Promise<Record<string, LedgerEntry>> {
  return (await h.connector?.ledger.forOrder('shop1', orderId)) ?? {};
}

describe('CIVA art. 29(7), 78(2): a second refund of the same goods is held, not credited twice', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('refund 1 of both mugs gets its credit note; refund 2 of a mug again is held with the reason, nothing issued', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('invoice number', () => h.woo.meta(id, META.documentNumber) as string | undefined);
    const first = h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 911, items: [{ index: 0, quantity: 2 }] })));
    await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(id) });
    await eventually('first credit note', async () => (await ledgerOf(h, id))[`credit-note-${String(first.id)}`]?.state === 'written-back');
    const second = h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 912, items: [{ index: 0, quantity: 1 }] })));
    await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(id) });
    const entry = await eventually('second held', async () => {
      const found = (await ledgerOf(h, id))[`credit-note-${String(second.id)}`];
      return found?.state === 'held' ? found : undefined;
    });
    expect(entry.detail).toMatch(/would credit .* of "Caneca de cerâmica", but invoice .* earlier credit notes already credit .*CIVA art\. 29\(7\), 78\(2\)/);
    await h.woo.settle();
    expect((await h.documentsOf(id)).filter((d) => d.document.Type === 'C')).toHaveLength(1);
  });
});

describe('a partial line refund, then the status Refunded: the line-less refund of the rest credits exactly the rest', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('two credit notes (the mugs, then the rest), nothing held', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('invoice number', () => h.woo.meta(id, META.documentNumber) as string | undefined);
    const mugs = h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 921, items: [{ index: 0, quantity: 2 }] })));
    await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(id) });
    await eventually('mugs credited', async () => (await ledgerOf(h, id))[`credit-note-${String(mugs.id)}`]?.state === 'written-back');
    h.woo.editOrder(id, { status: 'refunded' }, { fire: true });
    const rest = await eventually('the refund of the rest', () => (h.woo.order(id)?.refunds as { id: number }[] | undefined)?.find((r) => r.id !== mugs.id));
    const entry = await eventually('rest credited or held', async () => {
      const found = (await ledgerOf(h, id))[`credit-note-${String(rest.id)}`];
      return found?.state === 'written-back' || found?.state === 'held' ? found : undefined;
    });
    expect(entry.state).toBe('written-back');
    await h.woo.settle();
    expect((await h.documentsOf(id)).filter((d) => d.document.Type === 'C')).toHaveLength(2);
  });
});

