import { isCommonSale } from '../../law/sale-fast-path';
import { admitSale, SaleSchema } from '../../law/sale-schema';
import type { Sale } from '../../law/sale';
import { OrderMappingError } from '../../law/mapping-errors';
import { orderFixture, orderFixtureNames } from './support/fixtures';
import { wooSale } from './support/sale';
import { buildOrder } from './support/woo-cart';
import { PORTUGUESE_CARTS } from './support/portuguese-carts';
import { address } from './support/neutral-sale';
import { fieldPaths, withField } from '../support/field-paths';

/**
 * admitSale's hand proof (law/sale-fast-path.ts) gives zod's verdict: every sale the fixtures make
 * is accepted by both, and every field of a full sale broken in turn (removed, emptied, of another
 * kind, out of range) is refused by both, so zod still decides and words each refusal.
 */

/** A sale with every optional field and list filled, for the variants. */
const FULL: Sale = {
  platform: 'shopify',
  platformTitle: 'Shopify',
  id: '5500001123456789012',
  number: '1042',
  status: 'paid',
  payment: { state: 'paid', method: 'shopify_payments', title: 'Cartão', onDelivery: false },
  currency: 'EUR',
  pricesIncludeTax: true,
  created: '2026-11-19T09:58:00Z',
  paid: '2026-11-19T10:00:00+01:00',
  completed: '2026-11-20',
  total: '24.00',
  totalTax: '4.49',
  billing: address(),
  shipping: address({ country: 'pt' }),
  lines: [
    {
      id: '13001',
      kind: 'product',
      name: 'Caneca de grés',
      sku: 'CAN-01',
      productId: '7700',
      variantId: '7701',
      quantity: 2,
      subtotal: '19.51',
      total: '19.51',
      totalTax: '4.49',
      taxes: [{ rateId: 'PT-23', amount: '4.49', beforeDiscounts: '4.49' }],
      taxClass: '',
      nature: 'goods',
      attributes: [{ key: 'Cor', value: 'azul', label: 'Cor', shownValue: 'Azul' }],
    },
  ],
  discounts: [{ code: 'NATAL', amount: '1.00', tax: '0.23' }],
  taxRates: [{ id: 'PT-23', label: 'IVA', percent: 23, code: 'NOR', compound: false, tax: '4.49' }],
  needsShipping: true,
  customerNote: '',
  taxNumbers: [{ value: '123456789', source: 'billing_nif', businessField: false }],
  attributes: [{ key: '_nif', value: '123456789' }],
} as Sale;

const zodAccepts = (sale: unknown): boolean => SaleSchema.safeParse(sale).success;

const ODD_VALUES: [string, unknown][] = [
  ['undefined', undefined],
  ['null', null],
  ['a number', 42],
  ['a negative number', -1],
  ['above 100', 101],
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['a boolean', true],
  ['empty text', ''],
  ['a word', 'x'],
  ['a decimal text', '12.30'],
  ['a long text', 'a'.repeat(51)],
  ['a date that is not one', '2026-02-30'],
  ['a time past midnight', '2026-05-01T25:00:00Z'],
  ['a list', []],
  ['an object', {}],
];

describe('the sale fixtures: admitted by the hand proof and by zod', () => {
  const sales: [string, Sale][] = [
    ['the full neutral sale', FULL],
    ...orderFixtureNames().map((name): [string, Sale] => [`order fixture ${name}`, wooSale(orderFixture(name))]),
    ...Object.entries(PORTUGUESE_CARTS).map(([name, cart]): [string, Sale] => [`cart ${name}`, wooSale(buildOrder(cart))]),
  ];
  it.each(sales)('%s', (_name, sale) => {
    expect(zodAccepts(sale)).toBe(true);
    expect(isCommonSale(sale)).toBe(true);
  });
});

describe('each field of a full sale broken in turn: the same verdict as zod', () => {
  const variants: [string, unknown][] = fieldPaths(FULL).flatMap((path) => [
    [`${path.join('.')} removed`, withField(FULL, path, undefined, true)] as [string, unknown],
    ...ODD_VALUES.map(([what, value]): [string, unknown] => [`${path.join('.')} as ${what}`, withField(FULL, path, value, false)]),
  ]);
  it('covers hundreds of variants, most of them refused', () => {
    expect(variants.length).toBeGreaterThan(500);
    expect(variants.filter(([, sale]) => !zodAccepts(sale)).length).toBeGreaterThan(300);
  });
  it.each(variants)('%s', (_name, sale) => {
    expect(isCommonSale(sale)).toBe(zodAccepts(sale));
  });
  it.each([['a line tax naming a rate the sale does not list', withField(FULL, ['lines', 0, 'taxes', 0, 'rateId'], 'PT-6', false)], ['not an object', 'sale'], ['a list', [FULL]]])('%s', (_name, sale) => {
    expect(zodAccepts(sale)).toBe(false);
    expect(isCommonSale(sale)).toBe(false);
  });
});

describe('admitSale: a refused variant is still refused with the fields named', () => {
  it('names the field zod refuses', () => {
    const broken = withField(FULL, ['lines', 0, 'quantity'], -1, false) as Sale;
    expect(() => admitSale(broken)).toThrow(OrderMappingError);
    try {
      admitSale(broken);
    } catch (error) {
      expect(JSON.stringify((error as OrderMappingError).params ?? error)).toContain('lines.0.quantity');
    }
  });
});
