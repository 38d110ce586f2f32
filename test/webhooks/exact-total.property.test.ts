import fc from 'fast-check';
import { formatDecimal, fromCents, parseDecimal } from '../../client/money';
import { CreateDocumentRequestSchema } from '../../client/schemas/document';
import { computeTotals, lineNet } from '../../client/totals';
import { solveLine } from '../../webhooks/woocommerce/line-plan';
import { documentForOrder } from '../../webhooks/woocommerce/order-to-document';
import { creditNoteForRefund } from '../../webhooks/woocommerce/refund-to-credit-note';
import { buildOrder, buildRefund, Cart } from './support/woo-cart';

/**
 * Random carts priced the way WooCommerce prices them (support/woo-cart.ts: unrounded line taxes,
 * 2-decimal line totals, tax_lines rounded per line or per rate, order total = the sum), mapped and
 * totalled by the service's rule: the document total must be the order total, to the cent, always.
 */

const RATES = ['23', '13', '6', '22', '12', '4', '16', '9', '0'];
const REGIONS: string[][] = [
  ['23', '13', '6'],
  ['22', '12', '4'],
  ['16', '9', '4'],
  RATES,
];

const cents = (min: number, max: number) => fc.integer({ min, max }).map((c) => formatDecimal(fromCents(BigInt(c)), 2));

const cartArbitrary: fc.Arbitrary<Cart> = fc
  .record({
    region: fc.integer({ min: 0, max: REGIONS.length - 1 }),
    inclusive: fc.boolean(),
    rounding: fc.constantFrom<'per-line' | 'per-rate'>('per-line', 'per-rate'),
    items: fc.array(
      fc.record({
        price: cents(1, 60000),
        quantity: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 13, max: 1500 })),
        rateIndex: fc.integer({ min: 0, max: 8 }),
      }),
      { minLength: 1, maxLength: 12 },
    ),
    coupon: fc.option(
      fc.oneof(
        fc.record({ type: fc.constant<'percent'>('percent'), amount: fc.integer({ min: 1, max: 100 }).map(String) }),
        fc.record({ type: fc.constant<'fixed_cart'>('fixed_cart'), amount: cents(1, 5000) }),
      ),
    ),
    shipping: fc.option(fc.record({ cost: cents(0, 3000), rateIndex: fc.integer({ min: 0, max: 8 }) })),
    fee: fc.option(fc.record({ cost: cents(1, 2000), rateIndex: fc.integer({ min: 0, max: 8 }) })),
    discountFeePercent: fc.option(fc.integer({ min: 1, max: 60 })),
  })
  .map((r) => {
    const rates = REGIONS[r.region];
    const pick = (i: number) => rates[i % rates.length];
    const items = r.items.map((item, i) => ({
      name: `Artigo ${i + 1}`,
      sku: `SKU-${i + 1}`,
      productId: 100 + i,
      price: item.price,
      quantity: item.quantity,
      rate: pick(item.rateIndex),
    }));
    const fees: Cart['fees'] = [];
    if (r.fee) fees.push({ name: 'Taxa de serviço', amount: r.fee.cost, rate: pick(r.fee.rateIndex) });
    // WooCommerce caps negative fees at the cart total; keeping them off coupon carts keeps them below it.
    if (r.discountFeePercent && !r.coupon) {
      // A negative fee smaller than the goods (WooCommerce lets a shop add one by hand or by plugin).
      const smallest = items.reduce((min, item) => Math.min(min, Math.round(Number(item.price) * 100)), Infinity);
      const amount = Math.max(1, Math.floor((smallest * r.discountFeePercent) / 100));
      fees.push({ name: 'Desconto', amount: `-${formatDecimal(fromCents(BigInt(amount)), 2)}` });
    }
    return {
      id: 9000,
      pricesIncludeTax: r.inclusive,
      taxRounding: r.rounding,
      items,
      coupons: r.coupon ? [{ code: 'promo', ...r.coupon }] : [],
      shipping: r.shipping ? [{ title: 'CTT', cost: r.shipping.cost, rate: pick(r.shipping.rateIndex) }] : [],
      fees,
    } satisfies Cart;
  });

const settings = { exemptionCode: 'M99' };
// FC_RUNS=20000 for a long local hunt; CI keeps the default.
const runs = Number(process.env.FC_RUNS ?? 400);

describe('property: a random WooCommerce cart maps to a document with exactly the order total', () => {
  it('holds for every generated cart', () => {
    fc.assert(
      fc.property(cartArbitrary, (cart) => {
        const order = buildOrder(cart);
        const { request } = documentForOrder(order as never, settings);
        CreateDocumentRequestSchema.parse(request);
        const amount = formatDecimal(computeTotals(request.Document.Lines).amount, 2);
        expect(amount).toBe(order.total);
        expect(request.Document.Lines.every((l) => !String(l.UnitPrice).startsWith('-'))).toBe(true);
      }),
      { numRuns: runs },
    );
  });
});

describe('property: a full refund of a random cart maps to a credit note of exactly the refund amount', () => {
  it('holds for every generated cart', () => {
    fc.assert(
      fc.property(cartArbitrary.filter((c) => (c.fees ?? []).length === 0), fc.boolean(), (cart, withShipping) => {
        const order = buildOrder(cart);
        const refund = buildRefund(order, {
          id: 1,
          items: cart.items.map((item, index) => ({ index, quantity: item.quantity })),
          shipping: withShipping,
        });
        // A refund of nothing is refused by design (tested elsewhere).
        fc.pre(refund.amount !== '0.00');
        const { request } = creditNoteForRefund(order as never, refund as never, 'FT 1/1', settings);
        expect(formatDecimal(computeTotals(request.Document.Lines).amount, 2)).toBe(refund.amount);
      }),
      { numRuns: Math.ceil(runs / 2) },
    );
  });
});

describe('property: solveLine lands every line exactly on its net', () => {
  it('for any list net, discounted net and quantity', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 100000 }),
        fc.integer({ min: 2, max: 12 }),
        (listUnits, percentOff, quantity, scale) => {
          const listNet = { units: listUnits, scale };
          const target = parseDecimal(formatDecimal({ units: (listUnits * BigInt(100 - percentOff)) / 100n, scale }));
          const rounded = fromCents(BigInt(Math.round(Number(formatDecimal(target)) * 100)));
          const line = solveLine({
            code: 'X',
            description: 'Artigo',
            type: 'P',
            unit: 'UN',
            quantity: parseDecimal(quantity),
            listNet,
            targetNet: rounded,
            rate: parseDecimal(23),
            adjustable: true,
          });
          expect(formatDecimal(lineNet(line), 2)).toBe(formatDecimal(rounded, 2));
          expect(Number(line.ProductDiscount)).toBeGreaterThanOrEqual(0);
          expect(Number(line.ProductDiscount)).toBeLessThanOrEqual(100);
        },
      ),
      { numRuns: 500 },
    );
  });
});
