import { formatDecimal } from '../../client/money';
import { CreateDocumentRequestSchema } from '../../client/schemas/document';
import { computeTotals } from '../../client/totals';
import { MappingSettingsInput } from '../../webhooks/woocommerce/mapping-settings';
import { documentForOrder } from '../../webhooks/woocommerce/order-to-document';
import { sharedFixture } from './support/fixtures';

/**
 * The four published payloads are US-dollar orders from US/Vietnamese test shops, some from old
 * WooCommerce versions (wc/v2, no rate_percent). What can be mapped is mapped exactly; what cannot
 * (no EuroRate) fails with a message naming the order and the fix.
 */
const usd: MappingSettingsInput = { euroRates: { USD: '0.9251' }, shopTimeZone: 'America/New_York' };

describe('shared fixtures map exactly once the missing facts are configured', () => {
  it.each([
    ['wc-docs-order-727-create-response.json', '29.35', 'M05', ['7.5', '7.5', '0'], '2017-03-22'],
    ['wc-ios-order-963-coupon-tax.json', '31.20', undefined, ['4', '4'], '2018-04-03'],
    // Virtual and downloadable (services) to a consumer in Vietnam: no export of goods, the code is the accountant's.
    ['wc-pipedream-order-15-wc8.0.2-webhook.json', '0.00', 'M99', ['0'], '2023-08-16'],
  ])('%s', (file, total, exemption, rates, date) => {
    const { request, notes } = documentForOrder(sharedFixture(file) as never, { ...usd, exemptionCode: 'M99' });
    expect(() => CreateDocumentRequestSchema.parse(request)).not.toThrow();
    const doc = request.Document;
    expect(formatDecimal(computeTotals(doc.Lines).amount, 2)).toBe(total);
    expect(doc.TaxExemptionReasonCode).toBe(exemption);
    expect(doc.Lines.map((l) => String(l.TaxValue))).toEqual(rates);
    expect([doc.Currency, doc.EuroRate]).toEqual(['USD', '0.9251']);
    expect(doc.Description).toContain(` de ${date}`);
    expect(notes.map((n) => n.message).join('\n')).toMatch(/EuroRate 0.9251 from the mapping settings/);
  });

  it('derives the 7.5% California rate of order 727 (no rate_percent in WooCommerce 3.0)', () => {
    const { notes } = documentForOrder(sharedFixture('wc-docs-order-727-create-response.json') as never, usd);
    expect(notes).toContainEqual({ level: 'info', message: 'Tax "State Tax" has no rate_percent in the order: 7.5% derived from the line taxes' });
  });

  it('shows the fixed-cart coupon of order 963 as 40% and 100% line discounts (subtotal vs total)', () => {
    const { request } = documentForOrder(sharedFixture('wc-ios-order-963-coupon-tax.json') as never, usd);
    expect(request.Document.Lines.map((l) => [l.Code, l.UnitPrice, l.ProductDiscount])).toEqual([
      ['52', '50', '40'],
      ['5555-A', '10', '100'],
    ]);
  });

  it('does not repeat variation attributes that the name of 727 already carries', () => {
    const { request } = documentForOrder(sharedFixture('wc-docs-order-727-create-response.json') as never, usd);
    expect(request.Document.Lines[1].Description).toBe('Ship Your Idea – Color: Black, Size: M Test');
  });
});

describe('shared fixtures fail clearly where a fact is missing', () => {
  it.each([
    ['wc-docs-order-727-create-response.json', /^Order #727: the order is in USD and no EuroRate is known/],
    ['wc-ios-order-963-coupon-tax.json', /^Order #963: the order is in USD/],
    ['wc-pipedream-order-15-wc8.0.2-webhook.json', /^Order #15: the order is in USD/],
  ])('%s without a EuroRate', (file, message) => {
    expect(() => documentForOrder(sharedFixture(file) as never)).toThrow(message);
  });

  it('order 727 shipped inside the EU with untaxed shipping and no exemption code configured', () => {
    const order = sharedFixture('wc-docs-order-727-create-response.json') as Record<string, Record<string, string>>;
    order.billing.country = 'PT';
    order.billing.postcode = '1000-001';
    order.shipping.country = 'PT';
    expect(() => documentForOrder(order as never, usd)).toThrow(
      /^Order #727: "Flat Rate" has 0% VAT but no exemption reason applies .*set exemptionCode in the mapping settings/,
    );
    expect(documentForOrder(order as never, { ...usd, exemptionCode: 'M07' }).request.Document.TaxExemptionReasonCode).toBe('M07');
  });
});
