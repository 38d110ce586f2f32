import fc from 'fast-check';
import { add, formatDecimal, fromCents, parseDecimal } from '../../client/money';
import { CreateDocumentRequestSchema } from '../../client/schemas/document';
import { computeTotals, lineNet } from '../../client/totals';
import { solveLine } from '../../law/line-plan';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import { creditNoteForRefund } from '../../platforms/woocommerce/documents';
import { cartArbitrary } from './support/random-carts';
import { buildOrder, buildRefund } from './support/woo-cart';
import { wooOrder, wooRefund } from '../support/payloads';

/**
 * Random carts priced the way WooCommerce prices them (support/woo-cart.ts: unrounded line taxes,
 * 2-decimal line totals, tax_lines rounded per line or per rate, order total = the sum), mapped and
 * totalled by the service's rule: the document total must be the order total, to the cent, always.
 */

// 0% lines of random carts: the shop-wide small-business regime (CIVA art. 53, M10) gives them their reason.
const settings = { exemptions: { regime: 'M10' } };
// FC_RUNS=20000 for a long local hunt; CI keeps the default.
const runs = Number(process.env.FC_RUNS ?? 400);

let unreachable = 0;
afterAll(() => process.stderr.write(`exact-total property: ${unreachable} of ${runs} random carts unreachable under per-rate rounding (issued at the nearest total, difference reported)\n`));

describe('property: a random WooCommerce cart maps to a document with the order total, or the nearest with the difference reported', () => {
  it('holds for every generated cart', () => {
    fc.assert(
      fc.property(cartArbitrary, (cart) => {
        const order = buildOrder(cart);
        const { request, totalDifference } = documentForOrder(wooOrder(order), settings);
        CreateDocumentRequestSchema.parse(request);
        const amount = computeTotals(request.Document.Lines).amount;
        // The shop's total, or the nearest the per-rate rule reaches, with the difference reported.
        expect(formatDecimal(add(amount, parseDecimal(totalDifference ?? '0')), 2)).toBe(order.total);
        if (totalDifference !== undefined) expect(Math.abs(Number(totalDifference))).toBeLessThanOrEqual(0.02);
        // CIVA art. 16(1): rounding never adds a 0% line.
        expect(request.Document.Lines.some((l) => l.Code === 'ACERTO')).toBe(false);
        if (totalDifference !== undefined) unreachable += 1;
        expect(request.Document.Lines.every((l) => !String(l.UnitPrice).startsWith('-'))).toBe(true);
      }),
      { numRuns: runs },
    );
  });
});

describe('property: a full or partial refund of a random cart maps to a credit note of exactly the refund amount', () => {
  it('holds for every generated cart', () => {
    fc.assert(
      fc.property(cartArbitrary, fc.boolean(), fc.integer({ min: 1, max: 10 }), (cart, withShipping, tenths) => {
        const order = buildOrder(cart);
        // tenths = 10 refunds everything; less refunds that share of each line's quantity (at least 1).
        const refund = buildRefund(order, {
          id: 1,
          items: cart.items.map((item, index) => ({ index, quantity: Math.max(1, Math.floor((item.quantity * tenths) / 10)) })),
          shipping: withShipping,
          // Fees (a discount fee too) are refunded with a full refund only.
          fees: tenths === 10,
        });
        // A refund of nothing is refused by design (tested elsewhere).
        fc.pre(refund.amount !== '0.00');
        const { request, totalDifference } = creditNoteForRefund(wooOrder(order), wooRefund(refund), 'FT 1/1', settings);
        expect(formatDecimal(add(computeTotals(request.Document.Lines).amount, parseDecimal(totalDifference ?? '0')), 2)).toBe(refund.amount);
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
