import { computeTotals } from '../../client/totals';
import { formatDecimal } from '../../client/money';
import { MappingSettingsInput } from '../../law/mapping-settings';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import { buildOrder, Cart } from './support/woo-cart';
import { wooOrder } from '../support/payloads';

/** CIVA art. 16(5)(b): shipping is part of the goods' taxable amount and takes their rate. */

const lisbon = { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua Augusta 100', city: 'Lisboa', postcode: '1100-053', country: 'PT' };
const books = (items: Cart['items'], shippingRate: string): Record<string, unknown> =>
  buildOrder({ id: 7900, items, shipping: [{ title: 'CTT', cost: '5.00', rate: shippingRate }], billing: lisbon, dateCreatedGmt: '2026-03-10T10:00:00' });
const book = { name: 'Livro', sku: 'LIV', productId: 1, price: '20.00', quantity: 1, rate: '6' };
const mug = { name: 'Caneca', sku: 'CAN', productId: 2, price: '10.00', quantity: 1, rate: '23' };

describe('CIVA art. 16(5)(b): shipping takes the rate of the goods it carries', () => {
  it.each<[string, Cart['items'], string, MappingSettingsInput, boolean, string[][]]>([
    ['a 6 % book shipped at 6 %: as charged', [book], '6', {}, false, [['LIV', '6'], ['PORTES', '6']]],
    ['a 6 % book shipped at 23 %: held', [book], '23', {}, true, [['LIV', '6'], ['PORTES', '23']]],
    ['a 6 % book shipped at 23 %, goods-rate: re-rated to 6 %, the 6.15 paid kept', [book], '23', { shippingRate: { otherRate: 'goods-rate' } }, false, [['LIV', '6'], ['PORTES', '6']]],
    ['mixed goods, 23 % shipping: as charged by default', [book, mug], '23', {}, false, [['LIV', '6'], ['CAN', '23'], ['PORTES', '23']]],
    ['mixed goods, proportional (opt-in): one shipping line per goods rate', [book, mug], '23', { shippingRate: { mixedGoods: 'proportional' } }, false, [['LIV', '6'], ['CAN', '23'], ['PORTES', '6'], ['PORTES', '23']]],
  ])('%s', (_name, items, shippingRate, settings, held, lines) => {
    const order = books(items, shippingRate);
    const { request, hold, notes, totalDifference } = documentForOrder(wooOrder(order), settings);
    expect(hold).toBe(held);
    expect(request.Document.Lines.map((l) => [l.Code, String(l.TaxValue)])).toEqual(lines);
    // What the buyer paid stays the document's total.
    expect(totalDifference).toBeUndefined();
    expect(formatDecimal(computeTotals(request.Document.Lines).amount, 2)).toBe(order.total);
    if (held) expect(notes.map((n) => n.message).join('\n')).toMatch(/shipping "CTT" is taxed at 23% but the goods it carries at 6%: shipping is part of the goods' taxable amount \(CIVA art\. 16\(5\)\(b\)\)/);
  });
});
