import { OrderMappingError } from '../../../law/mapping-errors';
import { parseWooOrder, parseWooRefund } from '../../../platforms/woocommerce/order-schema';
import { orderFixture, sharedFixture } from '../../law/support/fixtures';

describe('order schema: real payloads parse, extra fields tolerated', () => {
  it.each([
    ['wc-docs-order-727-create-response.json', 727, 2],
    ['wc-ios-order-963-coupon-tax.json', 963, 2],
    ['wc-pipedream-order-15-wc8.0.2-webhook.json', 15, 1],
  ])('%s', (file, id, lines) => {
    const order = parseWooOrder(sharedFixture(file));
    expect(order.id).toBe(id);
    expect(order.line_items).toHaveLength(lines);
    // Unused fields (payment_url, _links, image, ...) stay on the object.
    expect(Object.keys(order)).toEqual(expect.arrayContaining(['_links']));
  });

  it('keeps unrounded taxes[] text exactly', () => {
    const order = parseWooOrder(orderFixture('pt-002-mixed-23-13-6-incl'));
    expect(order.line_items[0].taxes[0].total).toBe('0.93962264150943');
  });

  it('treats an empty taxes[] amount as 0 and PHP float text as a decimal', () => {
    const raw = orderFixture('pt-001-mainland-23-single') as { line_items: { taxes: { total: string; subtotal: string }[] }[] };
    raw.line_items[0].taxes[0].subtotal = '';
    raw.line_items[0].taxes[0].total = '1.0E-5';
    const order = parseWooOrder(raw);
    expect(order.line_items[0].taxes[0]).toMatchObject({ total: '0.00001', subtotal: '0' });
  });
});

describe('order schema: a missing or malformed needed field is named', () => {
  const base = () => orderFixture('pt-001-mainland-23-single') as Record<string, unknown> & { line_items?: Record<string, unknown>[] };
  it.each<[string, (o: ReturnType<typeof base>) => void, RegExp]>([
    ['total as a number', (o) => (o.total = 36.04), /total must be decimal text/],
    ['total missing', (o) => delete o.total, /total must be decimal text/],
    ['line total malformed', (o) => (o.line_items![0].total = '12,30'), /line_items\[0\]\.total must be decimal text/],
    ['line quantity as text', (o) => (o.line_items![0].quantity = '2'), /line_items\[0\]\.quantity must be a number/],
    ['line items missing', (o) => delete o.line_items, /line_items is required/],
    ['billing missing', (o) => delete o.billing, /billing/],
    ['currency malformed', (o) => (o.currency = 'EURO'), /currency must be a 3-letter currency code/],
    ['tax rate id missing', (o) => ((o.line_items![0].taxes as Record<string, unknown>[])[0].id = 'x'), /taxes\[0\]\.id must be the tax rate id/],
  ])('%s', (_name, damage, message) => {
    const order = base();
    damage(order);
    expect(() => parseWooOrder(order)).toThrow(OrderMappingError);
    expect(() => parseWooOrder(order)).toThrow(message);
    expect(() => parseWooOrder(order)).toThrow(/^Order #5001: the order payload is not usable/);
  });
});

describe('refund schema', () => {
  it.each([
    [0, 726, 0, '10.00'],
    [1, 724, 1, '9.00'],
  ])('docs refund list item %i parses', (index, id, items, amount) => {
    const list = sharedFixture('wc-docs-order-723-refunds-list.json') as unknown[];
    const refund = parseWooRefund(list[index], 723);
    expect(refund).toMatchObject({ id, amount });
    expect(refund.line_items).toHaveLength(items);
  });

  it('names the bad field and the order', () => {
    expect(() => parseWooRefund({ id: 9, amount: 10 }, 723)).toThrow(/^Order #723: refund 9 is not usable: amount must be decimal text/);
  });
});
