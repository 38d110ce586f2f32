import fc from 'fast-check';
import { formatDecimal, fromCents } from '../../../client/money';
import { Cart } from './woo-cart';

/** Random carts over every Portuguese region's rates, both price modes and both WooCommerce tax roundings. */
const RATES = ['23', '13', '6', '22', '12', '4', '16', '9', '0'];
const REGIONS: string[][] = [
  ['23', '13', '6'],
  ['22', '12', '4'],
  ['16', '9', '4'],
  RATES,
];

const cents = (min: number, max: number) => fc.integer({ min, max }).map((c) => formatDecimal(fromCents(BigInt(c)), 2));

export const cartArbitrary: fc.Arbitrary<Cart> = fc
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

