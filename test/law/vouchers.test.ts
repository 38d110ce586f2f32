import { computeTotals } from '../../client/totals';
import { formatDecimal } from '../../client/money';
import { MappingSettingsInput } from '../../law/mapping-settings';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import { buildOrder } from './support/woo-cart';
import { wooOrder } from '../support/payloads';

/** CIVA art. 7(14): a redeemed multi-purpose voucher (gift card) is a payment, not a discount. */

const withCard = (name: string, taxable: boolean) =>
  buildOrder({
    id: 7700,
    items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price: '50.00', quantity: 1, rate: '23' }],
    fees: [{ name, amount: '-20.00', taxable }],
    billing: { first_name: 'Rui', last_name: 'Costa', address_1: 'Rua 1', city: 'Lisboa', postcode: '1100-053', country: 'PT' },
    dateCreatedGmt: '2026-03-10T10:00:00',
  });

describe('CIVA art. 7(14), 16(6)(b): an untaxed negative fee on a taxed order does not lower the taxable amount', () => {
  it.each<[string, string, MappingSettingsInput, boolean, RegExp]>([
    ['a fee named in giftCardFeeNames: invoiced at the full price, issued', 'Cartão oferta GC-123', { giftCardFeeNames: ['cartão oferta'] }, false, /Gift card "Cartão oferta GC-123" redeemed: a voucher is a payment, not a discount \(CIVA art\. 7\(14\)\)/],
    ['an unnamed untaxed negative fee: invoiced at the full price, held with the reason', 'Gift Card', {}, true, /Held: "Gift Card": a negative fee without VAT on a taxed order.*CIVA art\. 7\(14\).*giftCardFeeNames.*art\. 16\(6\)\(b\)/],
  ])('%s', (_name, fee, settings, held, note) => {
    const order = withCard(fee, false);
    expect(order.total).toBe('41.50');
    const { request, hold, notes } = documentForOrder(wooOrder(order), settings);
    expect(hold).toBe(held);
    // 50.00 + 23 % = 61.50: the full price, the card paid 20.00 of it.
    expect(formatDecimal(computeTotals(request.Document.Lines).amount, 2)).toBe('61.50');
    expect(request.Document.Lines.map((l) => [l.Code, l.ProductDiscount])).toEqual([['CAN', '0']]);
    expect(notes.map((n) => n.message).join('\n')).toMatch(note);
  });

  it('a taxed discount fee (a real discount, art. 16(6)(b)) still lowers the price', () => {
    const order = withCard('Desconto', true);
    const { request, hold } = documentForOrder(wooOrder(order));
    expect(hold).toBe(false);
    expect(formatDecimal(computeTotals(request.Document.Lines).amount, 2)).toBe(order.total);
  });
});
