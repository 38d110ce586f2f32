import { parseMappingSettings } from '../../../law/mapping-settings';
import { parseWooOrder, parseWooRefund } from '../../../platforms/woocommerce/order-schema';
import { saleOfWooOrder } from '../../../platforms/woocommerce/order-to-sale';
import { saleRefundOfWooRefund } from '../../../platforms/woocommerce/refund-to-sale-refund';
import { woocommerce } from '../../../platforms/woocommerce/adapter';
import { orderFixture, refundFixture } from '../../law/support/fixtures';

/** WooCommerce's order and refund in the law's words (law/sale.ts): only words change, never a rule. */
const settings = parseMappingSettings({});
const order5026 = parseWooOrder(orderFixture('pt-026-refund-source'));

describe('saleOfWooOrder', () => {
  it('keeps products, shipping and fees in their order, ids as text, amounts as charged', () => {
    const sale = saleOfWooOrder(order5026, settings);
    expect(sale.platform).toBe('woocommerce');
    expect(sale.id).toBe(String(order5026.id));
    expect(sale.lines.map((line) => line.kind)).toEqual([...order5026.line_items.map(() => 'product'), ...order5026.shipping_lines.map(() => 'shipping'), ...order5026.fee_lines.map(() => 'fee')]);
    expect(sale.lines[0]).toMatchObject({ id: String(order5026.line_items[0].id), total: order5026.line_items[0].total, taxes: order5026.line_items[0].taxes.map((t) => expect.objectContaining({ rateId: String(t.id), amount: t.total })) });
    expect(sale.taxRates.map((rate) => rate.id)).toEqual(order5026.tax_lines.map((line) => String(line.rate_id)));
  });

  it.each([
    ['processing', 'paid'],
    ['completed', 'paid'],
    ['on-hold', 'unpaid'],
    ['pending', 'unpaid'],
    ['failed', 'unpaid'],
    ['cancelled', 'cancelled'],
    ['checkout-draft', 'draft'],
  ])('status %s is a %s sale (the platform status kept beside it)', (status, state) => {
    const sale = saleOfWooOrder(parseWooOrder({ ...orderFixture('pt-001-mainland-23-single'), status }), settings);
    expect([sale.status, sale.payment.state]).toEqual([status, state]);
  });

  it('cash on delivery is paid when handed over; the *_gmt time is an instant, a site-local one stays local', () => {
    const raw = { ...orderFixture('pt-001-mainland-23-single'), payment_method: 'cod', date_paid: '2026-03-29T00:30:00', date_paid_gmt: '2026-03-28T23:30:00', date_created: '2026-03-28T10:00:00', date_created_gmt: null };
    const sale = saleOfWooOrder(parseWooOrder(raw), settings);
    expect(sale.payment.onDelivery).toBe(true);
    expect([sale.paid, sale.created]).toEqual(['2026-03-28T23:30:00Z', '2026-03-28T10:00:00']);
  });

  it('the buyer\'s tax numbers come from the configured meta keys, first non-empty first; a VAT key is a business field', () => {
    const raw = { ...orderFixture('pt-001-mainland-23-single'), meta_data: [{ key: '_billing_nif', value: '  ' }, { key: '_billing_vat', value: ' ESB12345678 ' }, { key: 'other', value: 'x' }] };
    const sale = saleOfWooOrder(parseWooOrder(raw), settings);
    expect(sale.taxNumbers).toEqual([{ value: 'ESB12345678', source: '_billing_vat', businessField: true }]);
  });
});

describe('saleRefundOfWooRefund: WooCommerce writes a refund negative, the neutral refund counts what goes back', () => {
  it('turns every sign and keeps the refunded line', () => {
    const raw = parseWooRefund(refundFixture('pt-026-refund-full'), order5026.id);
    const refund = saleRefundOfWooRefund(raw, order5026.id);
    const first = raw.line_items[0];
    expect(refund.lines[0]).toMatchObject({ kind: 'product', quantity: Math.abs(first.quantity), total: first.total.replace(/^-/, '') });
    expect(refund.lines.every((line) => !line.total.startsWith('-'))).toBe(true);
    expect(refund.saleId).toBe(String(order5026.id));
  });

  it('a discount fee\'s reversal (positive in WooCommerce) is negative: the buyer gives it back', () => {
    const raw = parseWooRefund({ id: 9, amount: '5.00', date_created_gmt: '2026-01-02T10:00:00', fee_lines: [{ id: 1, name: 'Desconto', total: '4.07', total_tax: '0.93', taxes: [{ id: 1, total: '0.93' }] }] }, 1);
    const [fee] = saleRefundOfWooRefund(raw, 1).lines;
    expect([fee.kind, fee.total, fee.totalTax, fee.taxes[0].amount]).toEqual(['fee', '-4.07', '-0.93', '-0.93']);
  });
});

describe('the WooCommerce platform hands the connector a sale', () => {
  it('saleOf and refundOf parse the payloads and translate them', () => {
    const sale = woocommerce.saleOf(orderFixture('pt-026-refund-source'), settings);
    expect(sale).toEqual(saleOfWooOrder(order5026, settings));
    expect(woocommerce.refundOf(refundFixture('pt-026-refund-full'), sale).saleId).toBe(sale.id);
    expect(() => woocommerce.saleOf({ id: 1 }, settings)).toThrow(/Order #1: /);
  });
});
