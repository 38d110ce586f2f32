/**
 * Issue 26, round three, through the real connector (webhook route, BullMQ, Redis, the sandbox over
 * HTTP, the fake WooCommerce): the neutral sale admitted at the registry (law/sale-schema.ts);
 * deposits and pre-orders paid before the supply told, never invoiced as the whole order (CIVA art.
 * 36(1)(c)); a credit note naming the buyer its invoice carried (CIVA art. 29(7), 78(2)).
 */
import type { LedgerEntry } from '../../connector/core/ledger';
import { META } from '../../connector/shop/order-meta';
import { wooRefundJson } from '../support/payloads';
import { sendWooWebhook, type JsonObject, type JsonValue } from '../support/fake-woocommerce';
import { buildRefund, eventually, orderQuiet, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { startViesStandIn, type StandIn } from './support/vies-stand-in';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

interface NotInvoicedRow {
  orderId: number;
  kind: string;
  why: string;
  issuable: boolean;
}

describe('issue 26 through the connector', () => {
  let h: Harness;
  let vies: StandIn;
  const ledgerOf = async (orderId: number): Promise<Record<string, LedgerEntry>> => (await h.connector?.ledger.forOrder('shop1', orderId)) ?? {};
  const notInvoiced = async (): Promise<NotInvoicedRow[]> => (await (await fetch(`${h.connector?.origin}/admin/api/not-invoiced/shop1`, { headers: ADMIN })).json()) as NotInvoicedRow[];
  const update = async (orderId: number, changes: JsonObject): Promise<void> => {
    const edited = h.woo.editOrder(orderId, changes, { fire: false });
    expect((await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: edited })).status).toBeLessThan(300);
  };
  const refunded = async (orderId: number, refundId: number): Promise<LedgerEntry> => {
    h.woo.addRefund(orderId, wooRefundJson(buildRefund(h.woo.order(orderId), { id: refundId, items: [{ index: 0, quantity: 1 }] })));
    await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(orderId) as JsonObject });
    return eventually('the credit note written back', async () => {
      const entry = (await ledgerOf(orderId))[`credit-note-${refundId}`];
      return entry?.state === 'written-back' ? entry : undefined;
    }, 30_000);
  };

  beforeAll(async () => {
    vies = await startViesStandIn();
    h = await startHarness({ tenant: { vies: { url: vies.url, timeoutMs: 2_000 } } });
  });
  afterAll(async () => {
    await h.close();
    await vies.close();
  });

  describe('the neutral sale is admitted in one place, the registry (law/sale-schema.ts)', () => {
    it('an order the law cannot read as a sale (a line of -1) is refused with the fields named, in the shop\'s language; nothing is issued', async () => {
      const order = portugueseOrder();
      const id = Number(order.id);
      const broken = { ...order, line_items: (order.line_items as JsonObject[]).map((item, i) => (i === 0 ? { ...item, quantity: -1 } : item)) as unknown as JsonValue };
      expect((await h.deliver(broken)).status).toBe(202);
      const entry = await eventually('refused with the reason', async () => {
        const invoice = (await ledgerOf(id)).invoice;
        return invoice?.state === 'mapping-failed' && invoice.action ? invoice : undefined;
      }, 30_000);
      expect(entry.detail).toContain('is not a sale the invoicing law can read (lines.0.quantity must not be negative)');
      await eventually('the note on the order, in the shop\'s language', () => h.woo.notes(id).some((n) => n.note.includes('is not a sale the invoicing law can read') && n.note.includes('lines.0.quantity')));
      await h.woo.settle();
      expect(await h.documentsOf(id)).toHaveLength(0);
    });
  });

  describe('CIVA art. 36(1)(c): a payment received before the supply is invoiced the day it is received', () => {
    it.each([
      { case: 'WooCommerce Deposits: a deposit paid (partial-payment)', status: 'partial-payment', meta: [], kind: 'deposit', listed: true },
      { case: 'Deposits & Partial Payments: a deposit paid (partially-paid)', status: 'partially-paid', meta: [{ key: '_wc_deposits_order_has_deposit', value: 'yes' }, { key: '_wc_deposits_deposit_paid', value: 'yes' }], kind: 'deposit', listed: true },
      { case: 'a deposit paid whose plugin moved the order to processing (its meta): never the whole order as paid', status: 'processing', meta: [{ key: '_wc_deposits_order_has_deposit', value: 'yes' }, { key: '_wc_deposits_deposit_paid', value: 'yes' }, { key: '_wc_deposits_second_payment_paid', value: 'no' }], kind: 'deposit', listed: true },
      { case: 'WooCommerce Pre-Orders: charged upfront (pre-ordered)', status: 'pre-ordered', meta: [{ key: '_wc_pre_orders_is_pre_order', value: '1' }, { key: '_wc_pre_orders_when_charged', value: 'upfront' }], kind: 'pre-order', listed: true },
      { case: 'WooCommerce Pre-Orders: charged upon release (nothing received: no invoice due yet)', status: 'pre-ordered', meta: [{ key: '_wc_pre_orders_is_pre_order', value: '1' }, { key: '_wc_pre_orders_when_charged', value: 'upon_release' }], kind: 'pre-order', listed: false },
    ])('$case', async ({ status, meta, kind, listed }) => {
      const order = portugueseOrder({ status, meta: [{ key: '_billing_nif', value: '232013969' }, ...meta] });
      const id = Number(order.id);
      expect((await h.deliver(order)).status).toBeLessThan(300);
      if (listed) {
        const row = await eventually('listed as not invoiced, with why', async () => (await notInvoiced()).find((r) => r.orderId === id));
        expect(row).toMatchObject({ kind: 'advance-payment', issuable: false });
        expect(row.why).toContain('CIVA art. 36(1)(c)');
        expect(row.why).toContain(kind === 'deposit' ? "issue the deposit's invoice by hand" : 'add "pre-ordered" to triggerStatuses');
        // Told on the order once, in the shop's language, with what the law asks and what to do.
        const note = await eventually('the note on the order', () => h.woo.notes(id).find((n) => n.note.includes('(CIVA art. 36(1)(c))')));
        expect(note.note).toContain(`status "${status}"`);
      } else {
        await orderQuiet(h, id);
        expect((await notInvoiced()).some((r) => r.orderId === id)).toBe(false);
      }
      await h.woo.settle();
      expect(await h.documentsOf(id)).toHaveLength(0);
      // A person's "issue" refuses it too, with the same reason (the whole order is not what was paid).
      const issued = await fetch(`${h.connector?.origin}/admin/api/orders/shop1/${id}/retry`, { method: 'POST', headers: ADMIN });
      if (listed) expect(await issued.text()).toContain('CIVA art. 36(1)(c)');
      await h.woo.settle();
      expect(await h.documentsOf(id)).toHaveLength(0);
    });

    it('the rest paid (processing, second payment recorded): the order is invoiced as usual, and leaves the list', async () => {
      const order = portugueseOrder({ status: 'partially-paid', meta: [{ key: '_wc_deposits_order_has_deposit', value: 'yes' }, { key: '_wc_deposits_deposit_paid', value: 'yes' }] });
      const id = Number(order.id);
      await h.deliver(order);
      await eventually('listed', async () => (await notInvoiced()).some((r) => r.orderId === id));
      const meta = ((h.woo.order(id) as JsonObject).meta_data as unknown as JsonObject[]).concat([{ id: 99_101, key: '_wc_deposits_second_payment_paid', value: 'yes' }]);
      await update(id, { status: 'processing', meta_data: meta as unknown as JsonValue });
      await eventually('invoiced', () => h.woo.meta(id, META.documentNumber) as string | undefined, 30_000);
      await eventually('off the list', async () => !(await notInvoiced()).some((r) => r.orderId === id));
    });
  });

  describe('CIVA art. 29(7), 78(2): a credit note names the buyer its invoice carried', () => {
    it('VIES said the buyer\'s EU VAT number is invalid: the invoice went to the final consumer, taxed; its credit note too', async () => {
      const order = portugueseOrder({
        billing: { first_name: 'Lucía', last_name: 'García', address_1: 'Calle Mayor 5', city: 'Madrid', postcode: '28013', country: 'ES', email: 'lucia@example.es', phone: '' },
        meta: [{ key: '_billing_nif', value: 'ESB12345678' }],
      });
      const id = Number(order.id);
      await h.deliver(order);
      const invoice = await eventually('invoiced', async () => {
        const entry = (await ledgerOf(id)).invoice;
        return entry?.state === 'written-back' ? entry : undefined;
      }, 30_000);
      expect(vies.asked).toContainEqual({ countryCode: 'ES', vatNumber: 'B12345678' });
      expect(invoice).toMatchObject({ buyerNif: '999999990', buyerCountry: 'ES' });
      await refunded(id, 7701);
      await h.woo.settle();
      const credit = (await h.documentsOf(id)).find((d) => d.document.Type === 'C');
      expect(credit?.client).toMatchObject({ NIF: '999999990', CountryCode: 'ES' });
      expect(credit?.document.TaxExemptionReasonCode).toBeUndefined();
      expect((credit?.document.Lines as { TaxValue: string | number }[]).map((l) => String(l.TaxValue))).toEqual(['23']);
    });

    it('a consumer\'s invoice, a company NIF put on the order afterwards: the credit note keeps the final consumer (the new NIF is told, never issued)', async () => {
      const order = portugueseOrder({ meta: [] });
      const id = Number(order.id);
      await h.deliver(order);
      await eventually('invoiced', async () => (await ledgerOf(id)).invoice?.state === 'written-back', 30_000);
      await h.woo.settle();
      const meta = ((h.woo.order(id) as JsonObject).meta_data as unknown as JsonObject[]).concat([{ id: 99_201, key: '_billing_nif', value: '509442013' }]);
      await update(id, { meta_data: meta as unknown as JsonValue, billing: { ...((h.woo.order(id) as JsonObject).billing as JsonObject), company: 'Costa & Filhos, Lda.' } });
      await eventually('the owner told of the new buyer', async () => (await ledgerOf(id)).invoice?.buyerToldNif === '509442013', 30_000);
      await refunded(id, 7702);
      await h.woo.settle();
      const credit = (await h.documentsOf(id)).find((d) => d.document.Type === 'C');
      expect(credit?.client).toMatchObject({ NIF: '999999990', CountryCode: 'PT' });
    });
  });
});
