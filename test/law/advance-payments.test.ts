import { advancePaymentDuty } from '../../law/advance-payment';
import { TenantSettingsSchema } from '../../connector/config/tenant-config';
import { planOrder, type GateOrder } from '../../connector/ingest/plan-order';
import { otherSystemDocument } from '../../platforms/woocommerce/other-plugins';
import { wooAdvancePayment } from '../../platforms/woocommerce/advance-payments';
import { shopifyAdvancePayment } from '../../platforms/shopify/advance-payments';
import { shopifyOtherSystemDocument } from '../../platforms/shopify/other-apps';
import { ShopifyOrderWebhookSchema, summaryOfWebhookOrder } from '../../platforms/shopify/order-summary';
import { NOTES } from '../../connector/words';

/**
 * CIVA art. 36(1)(c): a payment received before the goods are delivered (or the service performed)
 * is invoiced on the day it is received. Deposit and pre-order plugins keep such orders in statuses
 * of their own: the connector recognises them (their statuses and meta, platforms/woocommerce/),
 * never invoices the whole order as paid while only an advance was received, and tells a person
 * instead of waiting silently (settings.advancePayments, default `tell`).
 */

type Meta = { key: string; value: unknown }[];
const DEPOSIT_META: Meta = [
  { key: '_wc_deposits_order_has_deposit', value: 'yes' },
  { key: '_wc_deposits_deposit_paid', value: 'yes' },
];

function order(status: string, meta: Meta = [], paid: string | null = '2026-11-20T10:00:00'): GateOrder {
  return { status, total: '40.00', attributes: meta, refunds: [], paidAt: paid, createdAt: '2026-11-20T09:58:00', paymentMethod: 'stripe' };
}

async function plan(gated: GateOrder, settings: Record<string, unknown> = {}, invoiced = false) {
  return planOrder(gated, {
    settings: TenantSettingsSchema.parse(settings),
    goLiveAt: undefined,
    invoiceKnown: async () => invoiced,
    platform: { otherSystemDocument, advancePayment: wooAdvancePayment },
  });
}

describe('CIVA art. 36(1)(c): deposits, partial payments and pre-orders are told, never invoiced as the whole order', () => {
  it.each([
    { case: 'WooCommerce Deposits, deposit paid', gated: order('partial-payment'), kind: 'deposit', received: true, told: true },
    { case: 'Deposits & Partial Payments, deposit paid', gated: order('partially-paid', DEPOSIT_META), kind: 'deposit', received: true, told: true },
    { case: 'a paid deposit its plugin moved to processing (the rest unpaid)', gated: order('processing', [...DEPOSIT_META, { key: '_wc_deposits_second_payment_paid', value: 'no' }]), kind: 'deposit', received: true, told: true },
    { case: 'a pre-order charged upfront', gated: order('pre-ordered', [{ key: '_wc_pre_orders_when_charged', value: 'upfront' }]), kind: 'pre-order', received: true, told: true },
    { case: 'a pre-order charged upon release: nothing received, nothing due', gated: order('pre-ordered', [{ key: '_wc_pre_orders_when_charged', value: 'upon_release' }], null), kind: 'pre-order', received: false, told: false },
    { case: 'a pre-order without the plugin\'s meta, paid', gated: order('pre-ordered'), kind: 'pre-order', received: true, told: true },
    { case: 'a pre-order without the plugin\'s meta, unpaid', gated: order('pre-ordered', [], null), kind: 'pre-order', received: false, told: false },
  ])('$case', async ({ gated, kind, received, told }) => {
    const advance = wooAdvancePayment(gated);
    expect(advance).toMatchObject({ kind, status: gated.status, received });
    expect(advancePaymentDuty(advance ?? { kind: 'deposit', status: '', plugin: '', received: false }).due).toBe(received);
    const planned = await plan(gated);
    expect(planned.jobs).toEqual([]);
    if (told) expect(planned.notInvoiced).toEqual({ code: 'advance-payment', kind, status: gated.status, plugin: advance?.plugin });
    else expect(planned.notInvoiced).toBeUndefined();
  });

  it.each([
    { case: 'an ordinary paid order', gated: order('processing') },
    { case: 'the deposit order once the rest is paid', gated: order('processing', [...DEPOSIT_META, { key: '_wc_deposits_second_payment_paid', value: 'yes' }]) },
  ])('$case: invoiced as usual', async ({ gated }) => {
    expect(wooAdvancePayment(gated)).toBeUndefined();
    expect((await plan(gated)).jobs).toEqual([{ kind: 'invoice' }]);
  });

  it('a pre-order paid upfront is invoiced on its payment when the shop lists "pre-ordered" as a trigger (the whole amount was received)', async () => {
    const gated = order('pre-ordered', [{ key: '_wc_pre_orders_when_charged', value: 'upfront' }]);
    expect(await plan(gated, { triggerStatuses: ['pre-ordered', 'processing', 'completed'] })).toEqual({ jobs: [{ kind: 'invoice' }] });
  });

  it('a deposit status is never invoiced as the whole order, even listed as a trigger', async () => {
    const planned = await plan(order('partially-paid', DEPOSIT_META), { triggerStatuses: ['partially-paid', 'processing', 'completed'] });
    expect(planned).toMatchObject({ jobs: [], notInvoiced: { code: 'advance-payment', kind: 'deposit' } });
  });

  it('an order this connector already invoiced is planned as usual (its refunds, its cancellation)', async () => {
    expect((await plan(order('partially-paid', DEPOSIT_META), {}, true)).notInvoiced).toBeUndefined();
  });

  it('settings.advancePayments: ignore waits silently, as before', async () => {
    expect(await plan(order('partially-paid', DEPOSIT_META), { advancePayments: 'ignore' })).toEqual({ jobs: [] });
  });
});

describe("CIVA art. 36(1)(c): Shopify's own advance payments (PARTIALLY_PAID: a deposit, an instalment on payment terms, a partial capture) go through the same rule", () => {
  const shopify = { otherSystemDocument: shopifyOtherSystemDocument, advancePayment: shopifyAdvancePayment };
  // A Shopify tenant's trigger statuses are set after the schema (load-config.ts: Shopify's words have underscores).
  const planShopify = (gated: GateOrder, { triggerStatuses = ['paid', 'partially_refunded'], ...settings }: Record<string, unknown> & { triggerStatuses?: string[] } = {}, invoiced = false) =>
    planOrder(gated, { settings: { ...TenantSettingsSchema.parse(settings), triggerStatuses }, goLiveAt: undefined, invoiceKnown: async () => invoiced, platform: shopify });
  /** The REST body of an orders/updated delivery, as the connector's route reads it (platforms/shopify/order-summary.ts). */
  const delivered = (financialStatus: string, outstanding: string): GateOrder =>
    summaryOfWebhookOrder(
      ShopifyOrderWebhookSchema.parse({
        id: 5962412736906,
        financial_status: financialStatus,
        cancelled_at: null,
        test: false,
        currency: 'EUR',
        total_price: '109.72',
        total_outstanding: outstanding,
        created_at: '2026-11-20T10:15:00Z',
        processed_at: '2026-11-20T10:15:00Z',
        updated_at: '2026-11-21T09:00:00Z',
        payment_terms: { payment_terms_name: 'Net 30', payment_terms_type: 'net', due_in_days: 30 },
        refunds: [],
      }),
    );

  it.each([
    { case: 'a deposit or instalment received, the rest outstanding (partially_paid)', gated: delivered('partially_paid', '79.72'), told: true, jobs: [] },
    { case: 'payment terms, nothing received yet (pending): no payment, no advance-payment invoice', gated: delivered('pending', '109.72'), told: false, jobs: [] },
    { case: 'authorized, not captured: nothing received', gated: delivered('authorized', '109.72'), told: false, jobs: [] },
    { case: 'the rest paid (paid): the whole order invoiced as usual', gated: delivered('paid', '0.00'), told: false, jobs: [{ kind: 'invoice' }] },
  ])('$case', async ({ gated, told, jobs }) => {
    const advance = shopifyAdvancePayment(gated);
    expect(advance === undefined).toBe(!told);
    const planned = await planShopify(gated);
    expect(planned.jobs).toEqual(jobs);
    if (told) expect(planned.notInvoiced).toEqual({ code: 'advance-payment', kind: 'deposit', status: 'partially_paid', plugin: 'Shopify' });
    else expect(planned.notInvoiced).toBeUndefined();
  });

  it('partially_paid listed as a trigger status is still never invoiced as the whole order', async () => {
    const planned = await planShopify(delivered('partially_paid', '79.72'), { triggerStatuses: ['paid', 'partially_paid', 'partially_refunded'] });
    expect(planned).toMatchObject({ jobs: [], notInvoiced: { code: 'advance-payment', kind: 'deposit', status: 'partially_paid' } });
  });

  it('an order this connector already invoiced is planned as usual; settings.advancePayments: ignore waits silently', async () => {
    expect((await planShopify(delivered('partially_paid', '79.72'), {}, true)).notInvoiced).toBeUndefined();
    expect(await planShopify(delivered('partially_paid', '79.72'), { advancePayments: 'ignore' })).toEqual({ jobs: [] });
  });

  it('the note and the refusal of a person\'s "issue" say the law and what to do, in both languages, naming Shopify\'s status', () => {
    const reason = { kind: 'deposit', status: 'partially_paid', plugin: 'Shopify' };
    expect(NOTES.advancePayment('en', reason)).toContain('this order is in Shopify\'s status "partially_paid"');
    expect(NOTES.advancePayment('en', reason)).toContain('(CIVA art. 36(1)(c))');
    expect(NOTES.advancePayment('pt', reason)).toContain('estado "partially_paid" de "Shopify"');
    expect(NOTES.advancePaymentWhy('pt', reason)).toContain('art. 36.º, n.º 1, alínea c), do CIVA');
    expect(NOTES.advancePaymentWhy('pt', reason)).not.toContain('plugin');
  });
});
