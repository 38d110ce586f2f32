import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWooOrderMeta } from '../../../platforms/woocommerce/order-schema';
import { commonWooOrderMeta } from '../../../platforms/woocommerce/order-fast-path';
import { z } from 'zod';
import { portugueseOrder } from '../../connector/support/harness';

/**
 * The worker's read of an order's meta (issue 29, sixth pass): the common case is proven by hand,
 * anything else by zod; either way the answer is the schema's own (the same entries, or the same
 * refusal).
 */
const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'orders');
const fixtures = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => [name, JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>] as const);

// The schema parseWooOrderMeta falls back to, written out again so the test does not trust the module's copy.
const Meta = z.looseObject({
  id: z.number(),
  meta_data: z
    .array(z.looseObject({ key: z.string(), value: z.unknown(), display_key: z.string().optional(), display_value: z.unknown().optional() }))
    .optional()
    .transform((list) => list ?? []),
});

const order = (): Record<string, unknown> => portugueseOrder() as Record<string, unknown>;

describe("parseWooOrderMeta gives the meta schema's answer", () => {
  it.each(fixtures)('%s: the same entries, proven by hand', (_name, fixture) => {
    const fast = commonWooOrderMeta(fixture);
    expect(fast).toBeDefined();
    expect(fast).toEqual(Meta.parse(fixture).meta_data);
    expect(parseWooOrderMeta(fixture)).toEqual(Meta.parse(fixture).meta_data);
  });

  it.each<[string, (o: Record<string, unknown>) => unknown]>([
    ['meta with ids, display keys and values', (o) => ({ ...o, meta_data: [{ id: 1, key: '_billing_nif', value: '232013969', display_key: 'NIF', display_value: '232013969' }, { key: 'x', value: { a: [1] } }] })],
    ['no meta', (o) => ({ ...o, meta_data: undefined })],
    ['a value null', (o) => ({ ...o, meta_data: [{ key: 'x', value: null }] })],
  ])('%s: the same entries', (_name, change) => {
    const payload = change(order());
    expect(commonWooOrderMeta(payload)).toBeDefined();
    expect(parseWooOrderMeta(payload)).toEqual(Meta.parse(payload).meta_data);
  });

  it('copies each entry, as zod does (the caller may not change the shop copy through it)', () => {
    const payload = { ...order(), meta_data: [{ key: 'x', value: 1 }] };
    const [entry] = parseWooOrderMeta(payload);
    expect(entry).toEqual({ key: 'x', value: 1 });
    expect(entry).not.toBe((payload.meta_data as unknown[])[0]);
  });

  it.each<[string, unknown]>([
    ['no id', { ...order(), id: undefined }],
    ['an id as text', { ...order(), id: '7' }],
    ['an id NaN', { ...order(), id: Number.NaN }],
    ['meta not a list', { ...order(), meta_data: {} }],
    ['a meta entry without a key', { ...order(), meta_data: [{ value: 1 }] }],
    ['a meta entry with a numeric key', { ...order(), meta_data: [{ key: 5, value: 1 }] }],
    ['a meta entry without a value', { ...order(), meta_data: [{ key: 'x' }] }],
    ['a display key as a number', { ...order(), meta_data: [{ key: 'x', value: 1, display_key: 3 }] }],
    ['a meta entry as a list', { ...order(), meta_data: [['x', 1]] }],
    ['not an object', []],
    ['null', null],
  ])('%s: not proven by hand; zod decides', (_name, payload) => {
    expect(commonWooOrderMeta(payload)).toBeUndefined();
    const zod = Meta.safeParse(payload);
    if (zod.success) expect(parseWooOrderMeta(payload)).toEqual(zod.data.meta_data);
    else expect(() => parseWooOrderMeta(payload)).toThrow();
  });
});
