import { computeTotals } from '../../client/totals';
import { formatDecimal } from '../../client/money';
import type { MappingSettingsInput } from '../../law/mapping-settings';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import { buildOrder, type Cart, type CartFee } from './support/woo-cart';
import { wooOrder } from '../support/payloads';

/**
 * Issue 26.5, CIVA art. 16(5)(b): commissions, packaging, insurance and cash-on-delivery fees
 * charged to the buyer are part of the goods' taxable amount: a positive fee follows the goods'
 * rate under the `shippingRate` policy, as shipping does. Donations and vouchers keep their own rules.
 */
const lisbon = { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua Augusta 100', city: 'Lisboa', postcode: '1100-053', country: 'PT' };
const book = { name: 'Livro', sku: 'LIV', productId: 1, price: '20.00', quantity: 1, rate: '6' };
const mug = { name: 'Caneca', sku: 'CAN', productId: 2, price: '10.00', quantity: 1, rate: '23' };
const cart = (items: Cart['items'], fees: CartFee[]): Record<string, unknown> => buildOrder({ id: 7950, items, fees, billing: lisbon, dateCreatedGmt: '2026-03-10T10:00:00' });
const packaging = (rate: string): CartFee => ({ name: 'Embalagem', amount: '2.00', rate });

describe('CIVA art. 16(5)(b): a fee charged to the buyer takes the rate of the goods it is charged with', () => {
  it.each<[string, Cart['items'], CartFee[], MappingSettingsInput, string | undefined, string[][]]>([
    ['a 6 % book with 6 % packaging: as charged', [book], [packaging('6')], {}, undefined, [['LIV', '6'], ['TAXA', '6']]],
    ['a 6 % book with 23 % packaging: held (fee-rate-differs)', [book], [packaging('23')], {}, 'fee-rate-differs', [['LIV', '6'], ['TAXA', '23']]],
    ['a 6 % book with a 23 % cash-on-delivery fee, goods-rate: re-rated to 6 %, what was paid kept', [book], [{ name: 'Cobrança', amount: '2.00', rate: '23' }], { shippingRate: { otherRate: 'goods-rate' } }, undefined, [['LIV', '6'], ['TAXA', '6']]],
    ['mixed goods, 23 % insurance: as charged by default', [book, mug], [{ name: 'Seguro', amount: '3.00', rate: '23' }], {}, undefined, [['LIV', '6'], ['CAN', '23'], ['TAXA', '23']]],
    ['mixed goods, proportional: one commission line per goods rate', [book, mug], [{ name: 'Comissão', amount: '3.00', rate: '23' }], { shippingRate: { mixedGoods: 'proportional' } }, undefined, [['LIV', '6'], ['CAN', '23'], ['TAXA', '6'], ['TAXA', '23']]],
  ])('%s', (_name, items, fees, settings, heldFor, lines) => {
    const order = cart(items, fees);
    const { request, hold, holds, notes, totalDifference } = documentForOrder(wooOrder(order), settings);
    expect(hold).toBe(heldFor !== undefined);
    // A held invoice also says its deadline (invoice-deadline): the reasons are the rest.
    expect(holds.map((h) => h.code).filter((c) => c !== 'invoice-deadline')).toEqual(heldFor ? [heldFor] : []);
    expect(request.Document.Lines.map((l) => [l.Code, String(l.TaxValue)])).toEqual(lines);
    // What the buyer paid stays the document's total.
    expect(totalDifference).toBeUndefined();
    expect(formatDecimal(computeTotals(request.Document.Lines).amount, 2)).toBe(order.total);
    if (heldFor) expect(notes.map((n) => n.message).join('\n')).toMatch(/fee "Embalagem" is taxed at 23% but the goods it is charged with at 6%/);
  });

  it('a donation charged as a fee stays out of the invoice and is never re-rated', () => {
    const order = cart([book], [{ name: 'Donativo Cruz Vermelha', amount: '2.00', taxable: false }]);
    const { request, holds } = documentForOrder(wooOrder(order), { shippingRate: { otherRate: 'goods-rate' } });
    expect(request.Document.Lines.map((l) => l.Code)).toEqual(['LIV']);
    expect(holds.map((h) => h.code).filter((c) => c !== 'invoice-deadline')).toEqual(['donation-left-out']);
  });
});
