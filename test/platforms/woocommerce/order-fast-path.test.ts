import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commonWooOrder } from '../../../platforms/woocommerce/order-fast-path';
import { WooOrderSchema, parseWooOrder } from '../../../platforms/woocommerce/order-schema';
import { portugueseOrder } from '../../connector/support/harness';

/**
 * The worker's parse of the shop's order (issue 29, sixth pass): the common case is proven by hand,
 * anything else by zod; either way the answer is the schema's own: the same order, the same keys in
 * the same order (JSON text compared), or zod's refusal.
 */
const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'orders');
const fixtures = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => [name, JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>] as const);

const order = (): Record<string, unknown> => portugueseOrder() as Record<string, unknown>;
const line = (o: Record<string, unknown>): Record<string, unknown> => (o.line_items as Record<string, unknown>[])[0] as Record<string, unknown>;
const withLine = (o: Record<string, unknown>, change: Record<string, unknown>): Record<string, unknown> => ({ ...o, line_items: [{ ...line(o), ...change }] });

function sameAsZod(payload: unknown): void {
  const fast = commonWooOrder(payload);
  const zod = WooOrderSchema.safeParse(payload);
  expect(zod.success).toBe(true);
  expect(fast).toBeDefined();
  expect(fast).toEqual(zod.data);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
  expect(parseWooOrder(payload)).toEqual(zod.data);
}

describe("commonWooOrder gives WooOrderSchema's answer", () => {
  it.each(fixtures)('%s: the same order, proven by hand', (_name, fixture) => sameAsZod(fixture));

  it.each<[string, (o: Record<string, unknown>) => unknown]>([
    ['the test harness order', (o) => o],
    ['no optional lists, no shipping, no meta', (o) => ({ ...o, tax_lines: undefined, shipping_lines: undefined, fee_lines: undefined, coupon_lines: undefined, shipping: undefined, meta_data: undefined })],
    ['null dates and texts', (o) => ({ ...o, date_paid: null, date_paid_gmt: null, customer_note: null, billing: { ...(o.billing as object), company: null } })],
    ['a numeric order number', (o) => ({ ...o, number: 1234 })],
    ['a line tax amount ""', (o) => withLine(o, { taxes: [{ id: 1, total: '', subtotal: '' }] })],
    ['a line with a null price and extra keys', (o) => withLine(o, { price: null, image: { id: 3 }, parent_name: null })],
    ['a tax line without shipping tax or rate percent', (o) => ({ ...o, tax_lines: [{ id: 5, rate_id: 1, tax_total: '2.30' }] })],
    ['a fee, a coupon and a shipping line', (o) => ({ ...o, fee_lines: [{ id: 1, name: 'Fee', total: '1.00', total_tax: '0.23', taxes: [] }], coupon_lines: [{ code: 'x', discount: '30' }], shipping_lines: [{ id: 2, method_title: 'Post', total: '4.00' }] })],
    ['meta with display keys and odd values', (o) => ({ ...o, meta_data: [{ id: 1, key: 'a', value: null, display_key: 'A', display_value: [1] }, { key: 'b', value: { c: 1 } }] })],
  ])('%s: the same order', (_name, change) => sameAsZod(change(order())));

  it.each<[string, (o: Record<string, unknown>) => unknown]>([
    ['no id', (o) => ({ ...o, id: undefined })],
    ['an id 0', (o) => ({ ...o, id: 0 })],
    ['a lowercase-free currency of four letters', (o) => ({ ...o, currency: 'EURO' })],
    ['a total as a number', (o) => ({ ...o, total: 12.3 })],
    ['a total in PHP float print (zod reads it)', (o) => ({ ...o, total: '1.0E-5' })],
    ['a total with spaces (zod trims it)', (o) => ({ ...o, total: ' 12.30 ' })],
    ['a date that is not a date', (o) => ({ ...o, date_paid: 'yesterday' })],
    ['a billing field as a number', (o) => ({ ...o, billing: { ...(o.billing as object), postcode: 1000 } })],
    ['line items absent', (o) => ({ ...o, line_items: undefined })],
    ['a line without a name', (o) => withLine(o, { name: undefined })],
    ['a line tax amount as a number (zod reads it)', (o) => withLine(o, { taxes: [{ id: 1, total: 0.5 }] })],
    ['a line quantity NaN', (o) => withLine(o, { quantity: Number.NaN })],
    ['a meta entry without a value', (o) => ({ ...o, meta_data: [{ key: 'x' }] })],
    ['prices_include_tax as text', (o) => ({ ...o, prices_include_tax: 'yes' })],
    ['not an object', () => []],
    ['null', () => null],
  ])('%s: not proven by hand; zod decides', (_name, change) => {
    const payload = change(order());
    expect(commonWooOrder(payload)).toBeUndefined();
    const zod = WooOrderSchema.safeParse(payload);
    if (zod.success) expect(parseWooOrder(payload)).toEqual(zod.data);
    else expect(() => parseWooOrder(payload)).toThrow(expect.objectContaining({ code: 'order-payload-invalid' }));
  });
});
