import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WooOrderSummarySchema, readWooOrderSummary } from '../../../platforms/woocommerce/order-summary';
import { portugueseOrder } from '../../connector/support/harness';

/**
 * The route's summary of a delivery (issue 29.4): the common case is proven by hand, anything else
 * by zod; either way the answer is the schema's own (the same summary, or the same refusal).
 */
const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'orders');
const fixtures = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => [name, JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>] as const);

const order = (): Record<string, unknown> => portugueseOrder() as Record<string, unknown>;

describe("readWooOrderSummary gives WooOrderSummarySchema's answer", () => {
  it.each(fixtures)('%s: the same summary', (_name, fixture) => {
    const answer = readWooOrderSummary(fixture);
    expect(answer).toEqual(WooOrderSummarySchema.safeParse(fixture));
    expect(answer.success).toBe(true);
  });

  it.each<[string, (o: Record<string, unknown>) => unknown]>([
    ['refunds with their totals, meta with an id', (o) => ({ ...o, refunds: [{ id: 9, reason: '', total: '-5.00' }], meta_data: [{ id: 1, key: '_billing_nif', value: '232013969' }] })],
    ['no meta, no refunds, no dates', (o) => ({ ...o, meta_data: undefined, refunds: undefined, date_paid_gmt: undefined, date_created_gmt: undefined, payment_method: undefined })],
    ['null dates', (o) => ({ ...o, date_paid_gmt: null, date_created_gmt: null })],
    ['a total in PHP float print (zod reads it)', (o) => ({ ...o, total: '1.0E-5' })],
    ['a total with spaces (zod trims it)', (o) => ({ ...o, total: ' 12.30 ' })],
    ['a refund total that is not money (left unjudged)', (o) => ({ ...o, refunds: [{ id: 9, total: 'n/a' }] })],
    ['a lowercase currency', (o) => ({ ...o, currency: 'eur' })],
  ])('%s: the same summary', (_name, change) => {
    const payload = change(order());
    expect(readWooOrderSummary(payload)).toEqual(WooOrderSummarySchema.safeParse(payload));
    expect(readWooOrderSummary(payload).success).toBe(true);
  });

  it.each<[string, unknown]>([
    ['no id', { ...order(), id: undefined }],
    ['an id 0', { ...order(), id: 0 }],
    ['a fractional id', { ...order(), id: 1.5 }],
    ['a currency of four letters', { ...order(), currency: 'EURO' }],
    ['a total as a number', { ...order(), total: 12.3 }],
    ['no billing', { ...order(), billing: undefined }],
    ['billing as a list', { ...order(), billing: [] }],
    ['line items not a list', { ...order(), line_items: {} }],
    ['a meta entry without a key', { ...order(), meta_data: [{ value: 1 }] }],
    ['a meta entry without a value', { ...order(), meta_data: [{ key: 'x' }] }],
    ['a refund without an id', { ...order(), refunds: [{ total: '-1.00' }] }],
    ['a date as a number', { ...order(), date_paid_gmt: 5 }],
    ['not an object', []],
    ['null', null],
  ])('%s: the same refusal, worded by zod', (_name, payload) => {
    const answer = readWooOrderSummary(payload);
    expect(answer.success).toBe(false);
    expect(answer.error?.issues).toEqual(WooOrderSummarySchema.safeParse(payload).error?.issues);
  });
});
