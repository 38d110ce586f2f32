import { formatDecimal } from '../../../client/money';
import { MappingSettingsInput } from '../../../law/mapping-settings';
import { documentForOrder } from '../../../platforms/woocommerce/documents';
import { MappingNote } from '../../../law/mapping-errors';
import { itemDescription } from '../../../law/order-lines';
import { resolveTaxRates } from '../../../law/tax-rates';
import { wooSale } from '../../law/support/sale';
import { sharedFixture } from '../../law/support/fixtures';
import { wooOrder } from '../../support/payloads';

/**
 * The four published payloads are US-dollar orders from US/Vietnamese test shops, some from old
 * WooCommerce versions (wc/v2, no rate_percent). What can be mapped is mapped exactly; what cannot
 * (no EuroRate) fails with a message naming the order and the fix.
 */
const usd: MappingSettingsInput = { euroRates: { USD: '0.9251' }, shopTimeZone: 'America/New_York' };

describe('shared fixtures map exactly once the missing facts are configured', () => {
  it('CIVA art. 3(7): order 15 is free and untaxed (a free download): no supply, nothing to invoice, not a blocked 0% line', () => {
    expect(() => documentForOrder(wooOrder(sharedFixture('wc-pipedream-order-15-wc8.0.2-webhook.json')), usd)).toThrow(/^Order #15: nothing to invoice: no lines with an amount/);
  });

  it('derives the 7.5% California rate of order 727 (no rate_percent in WooCommerce 3.0)', () => {
    const notes: MappingNote[] = [];
    const rates = resolveTaxRates(wooSale(sharedFixture('wc-docs-order-727-create-response.json')), notes);
    expect([...rates.values()].map((r) => formatDecimal(r.percent))).toContain('7.5');
    expect(notes).toContainEqual(
      expect.objectContaining({ level: 'info', code: 'tax-percent-derived', message: 'Tax "State Tax" has no rate_percent in the order: 7.5% derived from the line taxes' }),
    );
  });

  // CIVA art. 18(9): 7.5 % is no Portuguese rate, and 4 % was none in 2018 in this table (Azores from 2021-07, Madeira from 2024-10).
  it.each([
    ['wc-docs-order-727-create-response.json', /^Order #727: line "Woo Single #1" is taxed at 7.5%, which is no Portuguese VAT rate in force on 2017-03-22 .*OSS \(CIVA art\. 6-A, RITI art\. 10, Lei 47\/2020\)/],
    ['wc-ios-order-963-coupon-tax.json', /^Order #963: line ".*" is taxed at 4%, which is no Portuguese VAT rate in force on 2018-04-03/],
  ])('CIVA art. 18(9), Lei 47/2020: %s is refused, its rates are no Portuguese VAT on its date', (file, message) => {
    expect(() => documentForOrder(wooOrder(sharedFixture(file)), usd)).toThrow(message);
  });

  it('shows the fixed-cart coupon of order 963 as 40% and 100% line discounts (subtotal vs total)', () => {
    // Dated 2025 in an Azores shop, its 4 % is a Portuguese rate in force.
    const order = { ...(sharedFixture('wc-ios-order-963-coupon-tax.json') as Record<string, unknown>), date_paid: '2025-04-03T10:00:00', date_paid_gmt: '2025-04-03T10:00:00', date_created: '2025-04-03T10:00:00', date_created_gmt: '2025-04-03T10:00:00' };
    const { request } = documentForOrder(wooOrder(order), { ...usd, dispatchRegion: 'azores' });
    expect(request.Document.Lines.map((l) => [l.Code, l.UnitPrice, l.ProductDiscount])).toEqual([
      ['52', '50', '40'],
      ['5555-A', '10', '100'],
    ]);
  });

  it('does not repeat variation attributes that the name of 727 already carries', () => {
    const sale = wooSale(sharedFixture('wc-docs-order-727-create-response.json'));
    expect(itemDescription(sale.lines[1])).toBe('Ship Your Idea – Color: Black, Size: M Test');
  });
});

describe('shared fixtures fail clearly where a fact is missing', () => {
  it.each([
    ['wc-docs-order-727-create-response.json', /^Order #727: the order is in USD and no EuroRate is known/],
    ['wc-ios-order-963-coupon-tax.json', /^Order #963: the order is in USD/],
    ['wc-pipedream-order-15-wc8.0.2-webhook.json', /^Order #15: the order is in USD/],
  ])('%s without a EuroRate', (file, message) => {
    expect(() => documentForOrder(wooOrder(sharedFixture(file)))).toThrow(message);
  });

});
