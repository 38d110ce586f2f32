import { add, formatDecimal, parseDecimal, sum } from '../../../client/money';
import type { Sale, SaleRefund } from '../../../law/sale';
import { ShopifyAdminClient } from '../../../platforms/shopify/admin-client';
import { readShopifyOrder, readShopifyRefund, type ShopifyOrder } from '../../../platforms/shopify/order-query';
import { shopifyOrderToSale } from '../../../platforms/shopify/order-to-sale';
import { shopifyRefundToSaleRefund } from '../../../platforms/shopify/refund-to-sale-refund';
import { nifMetafieldOf } from '../../../platforms/shopify/buyer-nif';
import { shopifySaleSettingsSchema, type ShopifySaleSettings } from '../../../connector/config/shopify-tenant';
import { FakeShopify, type JsonObject } from '../../support/fake-shopify';
import { EXPORT_WITH_DUTIES, GIFT_CARD_TIP_CASH, MULTI_CURRENCY_TAXES_EXCLUDED, PENDING_TRANSFER, sweaterAndShippingRefund, TAXES_INCLUDED } from './fixtures/orders';

/**
 * Shopify orders of real shapes, read from the fake store through the adapter's own query, become
 * the law's neutral sale by the rules of docs/shopify.md. Every case also checks the invariant the
 * law relies on: the lines with their taxes add up to the order's total as paid.
 */

// A store that sells to B2B companies grants read_companies: Shopify's Company and CompanyLocation need it.
const shop = new FakeShopify({ scopes: ['read_orders', 'write_orders', 'read_companies'] });
let client: ShopifyAdminClient;

beforeAll(async () => {
  await shop.start();
  client = new ShopifyAdminClient({ shopDomain: shop.shopDomain, adminUrl: shop.url, accessToken: shop.accessToken });
  for (const order of [TAXES_INCLUDED, MULTI_CURRENCY_TAXES_EXCLUDED, GIFT_CARD_TIP_CASH, EXPORT_WITH_DUTIES, PENDING_TRANSFER]) shop.addOrder(order);
});
afterAll(() => shop.close());

function settings(overrides: Partial<ShopifySaleSettings> = {}): ShopifySaleSettings {
  return shopifySaleSettingsSchema.parse(overrides);
}

async function read(order: JsonObject, s: ShopifySaleSettings = settings()): Promise<ShopifyOrder> {
  const found = await readShopifyOrder(client, String(order.legacyResourceId), nifMetafieldOf(s.nifSources));
  if (!found) throw new Error('order not in the fake store');
  return found;
}

async function saleOf(order: JsonObject, s: ShopifySaleSettings = settings()): Promise<Sale> {
  return shopifyOrderToSale(await read(order, s), s);
}

function linesWithTax(sale: Sale): string {
  return formatDecimal(sum(sale.lines.map((line) => add(parseDecimal(line.total), sum(line.taxes.map((t) => parseDecimal(t.amount)))))), 2);
}

function pick(sale: Sale): { kind: string; name: string; quantity: number; subtotal: string; total: string; taxes: string[]; nature?: string }[] {
  return sale.lines.map((l) => ({ kind: l.kind, name: l.name, quantity: l.quantity, subtotal: l.subtotal, total: l.total, taxes: l.taxes.map((t) => `${t.rateId}=${t.amount}`), ...(l.nature ? { nature: l.nature } : {}) }));
}

describe('Shopify order -> sale: the lines as paid', () => {
  it.each([
    [
      'taxes included: the code\'s allocation comes off its line, tax lines as charged, shipping after tax',
      TAXES_INCLUDED,
      [
        { kind: 'product', name: 'Camisola de lã - M', quantity: 2, subtotal: '81.13', total: '73.02', taxes: ['iva-23=16.80'], nature: 'goods' },
        { kind: 'product', name: 'Os Lusíadas', quantity: 1, subtotal: '14.15', total: '14.15', taxes: ['iva-6=0.85'], nature: 'goods' },
        { kind: 'shipping', name: 'CTT Expresso', quantity: 1, subtotal: '3.98', total: '3.98', taxes: ['iva-23=0.92'] },
      ],
      '109.72',
    ],
    [
      'taxes excluded: prices are without tax, tax lines added on top',
      MULTI_CURRENCY_TAXES_EXCLUDED,
      [
        { kind: 'product', name: 'Rolo de linho 1 m', quantity: 3, subtotal: '60.00', total: '60.00', taxes: ['iva-23=13.80'], nature: 'goods' },
        { kind: 'shipping', name: 'Transportadora', quantity: 1, subtotal: '5.00', total: '5.00', taxes: ['iva-23=1.15'] },
      ],
      '79.95',
    ],
    [
      'a gift card sold is a voucher; a tip is no supply (a donation line); cash rounding is not a line',
      GIFT_CARD_TIP_CASH,
      [
        { kind: 'product', name: 'Cartão-presente 25 €', quantity: 1, subtotal: '25.00', total: '25.00', taxes: [], nature: 'voucher' },
        { kind: 'product', name: 'Caneca azulejo', quantity: 1, subtotal: '9.74', total: '9.74', taxes: ['iva-23=2.24'] },
        { kind: 'fee', name: 'Gorjeta', quantity: 1, subtotal: '2.00', total: '2.00', taxes: [], nature: 'donation' },
      ],
      '38.98',
    ],
    [
      'duties charged at checkout are a fee line (part of the taxable amount, CIVA art. 16(5)(a))',
      EXPORT_WITH_DUTIES,
      [
        { kind: 'product', name: 'Cadeira de cortiça', quantity: 1, subtotal: '100.00', total: '100.00', taxes: [], nature: 'goods' },
        { kind: 'fee', name: 'Direitos aduaneiros: Cadeira de cortiça', quantity: 1, subtotal: '8.00', total: '8.00', taxes: [] },
        { kind: 'shipping', name: 'International', quantity: 1, subtotal: '10.00', total: '10.00', taxes: [] },
      ],
      '118.00',
    ],
  ])('%s', async (_rule, order, lines, total) => {
    const sale = await saleOf(order);
    expect(pick(sale)).toEqual(lines);
    expect(sale.total).toBe(total);
    expect(linesWithTax(sale)).toBe(total);
  });

  it('takes the quantities and totals as paid, not the current ones after a refund', async () => {
    shop.refund(String(TAXES_INCLUDED.id), sweaterAndShippingRefund());
    const stored = shop.orders.get(String(TAXES_INCLUDED.id)) as JsonObject;
    (stored.lineItems as JsonObject[])[0].currentQuantity = 1;
    const sale = await saleOf(TAXES_INCLUDED);
    expect(sale.lines[0].quantity).toBe(2);
    expect(sale.total).toBe('109.72');
    expect(sale.status).toBe('partially_refunded');
    expect(sale.payment.state).toBe('paid');
  });
});

describe('Shopify order -> sale: money, taxes and the payment', () => {
  it('carries the shop\'s money by default and the buyer\'s under the presentment policy', async () => {
    const shopSide = await saleOf(MULTI_CURRENCY_TAXES_EXCLUDED);
    expect([shopSide.currency, shopSide.total, shopSide.totalTax]).toEqual(['EUR', '79.95', '14.95']);
    const buyerSide = await saleOf(MULTI_CURRENCY_TAXES_EXCLUDED, settings({ currency: 'presentment' }));
    expect([buyerSide.currency, buyerSide.total, buyerSide.totalTax]).toEqual(['USD', '86.34', '16.14']);
    expect(linesWithTax(buyerSide)).toBe('86.34');
    expect(buyerSide.attributes).toContainEqual({ key: 'shopify:shop-money-total', value: '79.95 EUR' });
  });

  it('lists each rate Shopify charged once, with its percentage as given', async () => {
    const sale = await saleOf(TAXES_INCLUDED);
    expect(sale.taxRates).toEqual([
      { id: 'iva-23', label: 'IVA', percent: 23, code: '', compound: false },
      { id: 'iva-6', label: 'IVA', percent: 6, code: '', compound: false },
    ]);
    expect(sale.pricesIncludeTax).toBe(true);
    // 9.98 at the line's charged ratio (16.80 over 73.02): 8.11 + 1.87, the same split as the line's subtotal.
    expect(sale.discounts).toEqual([{ code: 'BEMVINDO10', amount: '8.11', tax: '1.87' }]);
  });

  it.each([
    ['paid by card', TAXES_INCLUDED, { state: 'paid', method: 'shopify_payments', title: 'Shopify Payments', onDelivery: false }],
    ['a gift card and cash: the gift card is a payment, the method is the cash', GIFT_CARD_TIP_CASH, { state: 'paid', method: 'cash', title: 'Cash', onDelivery: false }],
    ['a bank transfer not yet paid', PENDING_TRANSFER, { state: 'unpaid', method: 'Transferência bancária', title: 'Transferência bancária', onDelivery: false }],
  ])('%s', async (_case, order, payment) => {
    expect((await saleOf(order)).payment).toEqual(payment);
  });

  it('keeps cash rounding as an attribute, not in the total', async () => {
    const sale = await saleOf(GIFT_CARD_TIP_CASH);
    expect(sale.attributes).toContainEqual({ key: 'shopify:cash-rounding', value: '0.02' });
    expect(sale.total).toBe('38.98');
  });

  it('a test order and a cancelled one are not paid sales', async () => {
    shop.addOrder({ ...PENDING_TRANSFER, id: 'gid://shopify/Order/11', legacyResourceId: '11', name: '#T1', test: true, displayFinancialStatus: 'PAID' });
    const test = await saleOf({ legacyResourceId: '11' });
    expect([test.status, test.payment.state]).toEqual(['test', 'unpaid']);
    shop.addOrder({ ...TAXES_INCLUDED, id: 'gid://shopify/Order/12', legacyResourceId: '12', name: '#1012' });
    shop.cancel('gid://shopify/Order/12');
    const cancelled = await saleOf({ legacyResourceId: '12' });
    expect([cancelled.status, cancelled.payment.state]).toEqual(['cancelled', 'cancelled']);
  });
});

describe('Shopify order -> sale: the buyer\'s NIF from the tenant\'s sources', () => {
  it.each([
    ['an order attribute (default sources)', TAXES_INCLUDED, undefined, [{ value: '509442013', source: 'shopify:attribute:nif', businessField: false }]],
    ['the B2B company location\'s tax registration id first, a business\'s number', MULTI_CURRENCY_TAXES_EXCLUDED, undefined, [{ value: 'PT 507 957 547', source: 'shopify:b2b-company', businessField: true }]],
    ['nothing when no source holds one', EXPORT_WITH_DUTIES, undefined, []],
  ])('%s', async (_case, order, sources, expected) => {
    const sale = await saleOf(order, settings(sources ? { nifSources: sources } : {}));
    expect(sale.taxNumbers).toEqual(expected);
  });

  it('reads a VAT app\'s order metafield when the tenant names it', async () => {
    const stored = shop.orders.get(String(EXPORT_WITH_DUTIES.id)) as JsonObject;
    (stored.metafields as JsonObject[]).push({ id: 'gid://shopify/Metafield/9', namespace: 'vat_app', key: 'vat_id', type: 'single_line_text_field', value: 'CHE-123.456.788', createdAt: '2026-11-23T12:00:00Z', updatedAt: '2026-11-23T12:00:00Z' });
    const sale = await saleOf(EXPORT_WITH_DUTIES, settings({ nifSources: [{ from: 'metafield', namespace: 'vat_app', key: 'vat_id' }] }));
    expect(sale.taxNumbers).toEqual([{ value: 'CHE-123.456.788', source: 'shopify:metafield:vat_app.vat_id', businessField: false }]);
  });

  it('takes a number from a Company field relabelled "NIF", and then leaves the company empty', async () => {
    shop.addOrder({ ...PENDING_TRANSFER, id: 'gid://shopify/Order/13', legacyResourceId: '13', name: '#1013', customAttributes: [], billingAddress: { ...(TAXES_INCLUDED.billingAddress as JsonObject), company: '501 964 843' } });
    const sale = await saleOf({ legacyResourceId: '13' }, settings({ nifSources: [{ from: 'address-company' }] }));
    expect(sale.taxNumbers).toEqual([{ value: '501 964 843', source: 'shopify:billing-company', businessField: false }]);
    expect(sale.billing.company).toBe('');
  });
});

describe('Shopify refund -> the law\'s refund', () => {
  async function refundOf(orderJson: JsonObject, refundId: string): Promise<SaleRefund> {
    const sale = shopifyOrderToSale(await read(orderJson), settings());
    const refund = await readShopifyRefund(client, refundId);
    if (!refund) throw new Error('no refund');
    return shopifyRefundToSaleRefund(refund, sale);
  }

  it('credits the line and the shipping; the merchant\'s untaxed adjustment is the amount without lines; the amount is what went back', async () => {
    const stored = shop.orders.get(String(TAXES_INCLUDED.id)) as JsonObject;
    const refundId = String(((stored.refunds as JsonObject[])[0]).id);
    const refund = await refundOf(TAXES_INCLUDED, refundId);
    expect(refund.saleId).toBe('5962412736508');
    expect(refund.amount).toBe('50.81');
    expect(refund.reason).toBe('Devolução de uma camisola');
    expect(refund.lines.map((l) => ({ kind: l.kind, saleLineId: l.saleLineId, quantity: l.quantity, total: l.total, taxes: l.taxes }))).toEqual([
      { kind: 'product', saleLineId: '466157049', quantity: 1, total: '36.51', taxes: [{ rateId: 'iva-23', amount: '8.40' }] },
      { kind: 'shipping', saleLineId: '369256396', quantity: 1, total: '3.98', taxes: [{ rateId: 'iva-23', amount: '0.92' }] },
    ]);
    // Shopify charged no tax on the goodwill 1.00: no rate of its own, the law's to credit (refundWithoutLines).
    expect(refund.withoutLines).toEqual({ amount: '1.00' });
    const credited = sum(refund.lines.map((l) => add(parseDecimal(l.total), sum(l.taxes.map((t) => parseDecimal(t.amount))))));
    expect(formatDecimal(add(credited, parseDecimal(refund.withoutLines?.amount ?? '0')), 2)).toBe(refund.amount);
  });
});
