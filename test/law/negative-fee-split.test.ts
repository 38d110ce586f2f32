import fc from 'fast-check';
import { add, formatDecimal, parseDecimal } from '../../client/money';
import { computeTotals } from '../../client/totals';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import { buildOrder, Cart } from './support/woo-cart';
import { wooOrder } from '../support/payloads';

/**
 * Issue 21.6: a discount given as a negative fee follows WooCommerce's split of that fee across the
 * rates (its `taxes` per rate on the fee line), so the document's VAT per rate is the shop's and the
 * shop's tax report and the accountant's records agree.
 */

function taxPerRate(order: Record<string, unknown>): Record<string, string> {
  const lines = order.tax_lines as { rate_percent: number; tax_total: string; shipping_tax_total: string }[];
  return Object.fromEntries(lines.map((l) => [String(l.rate_percent), formatDecimal(add(parseDecimal(l.tax_total), parseDecimal(l.shipping_tax_total)), 2)]));
}

function documentTaxPerRate(order: Record<string, unknown>): Record<string, string> {
  const { request } = documentForOrder(wooOrder(order));
  return Object.fromEntries(computeTotals(request.Document.Lines).byRate.map((r) => [formatDecimal(r.rate), formatDecimal(r.tax, 2)]));
}

const base: Cart = {
  id: 7800,
  taxRounding: 'per-rate',
  items: [
    { name: 'Auscultadores', sku: 'AUD', productId: 1, price: '40.83', quantity: 1, rate: '23' },
    { name: 'Livro', sku: 'LIV', productId: 2, price: '26.90', quantity: 1, rate: '6' },
  ],
  fees: [{ name: 'Desconto', amount: '-5.00' }],
  billing: { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua Augusta 100', city: 'Lisboa', postcode: '1100-053', country: 'PT' },
  dateCreatedGmt: '2026-03-10T10:00:00',
};

describe("issue 21.6 (CIVA art. 16(6)(b)): the VAT per rate of a negative-fee discount equals WooCommerce's", () => {
  it('a 30.00 discount over a 23 % and a 6 % line with 23 % shipping (WooCommerce counts shipping in its split)', () => {
    const order = buildOrder({ ...base, fees: [{ name: 'Desconto', amount: '-30.00' }], shipping: [{ title: 'CTT', cost: '12.00', rate: '23' }] });
    expect(documentTaxPerRate(order)).toEqual(taxPerRate(order));
  });

  it('for random two-rate carts with 23 % shipping and a negative fee (rounding at subtotal, prices without tax)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 20000 }), fc.integer({ min: 100, max: 20000 }), fc.integer({ min: 1, max: 90 }), fc.constantFrom('13', '6'), (a, b, percent, second) => {
        const discount = Math.max(1, Math.floor((Math.min(a, b) * percent) / 100));
        const cart: Cart = {
          ...base,
          items: [
            { ...base.items[0], price: formatDecimal({ units: BigInt(a), scale: 2 }, 2) },
            { ...base.items[1], price: formatDecimal({ units: BigInt(b), scale: 2 }, 2), rate: second },
          ],
          fees: [{ name: 'Desconto', amount: `-${formatDecimal({ units: BigInt(discount), scale: 2 }, 2)}` }],
          shipping: [{ title: 'CTT', cost: '9.00', rate: '23' }],
        };
        const order = buildOrder(cart);
        const shop = taxPerRate(order);
        const doc = documentTaxPerRate(order);
        // Per-rate VAT within the cent the exact-total balancing may move (never the 3-cent drifts of a proportional spread).
        const cents = (text: string | undefined) => Math.round(Number(text) * 100);
        for (const rate of Object.keys(shop)) expect(Math.abs(cents(doc[rate]) - cents(shop[rate]))).toBeLessThanOrEqual(1);
      }),
      { numRuns: 200 },
    );
  });
});
