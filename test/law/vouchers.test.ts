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

describe('CIVA art. 7(13)-(14): a multi-purpose voucher sold without VAT is no supply', () => {
  const withCardSold = (items: { name: string; price: string; rate?: string }[]) =>
    buildOrder({
      id: 7701,
      items: items.map((item, index) => ({ ...item, sku: `SKU-${index}`, productId: 10 + index, quantity: 1 })),
      billing: { first_name: 'Rui', last_name: 'Costa', address_1: 'Rua 1', city: 'Lisboa', postcode: '1100-053', country: 'PT' },
      dateCreatedGmt: '2026-03-10T10:00:00',
    });

  it('a card named in giftCardFeeNames sold beside a mug: the invoice covers the mug, the card is left out with a note, issued', () => {
    const order = withCardSold([
      { name: 'Cartão oferta 25 €', price: '25.00' },
      { name: 'Caneca', price: '10.00', rate: '23' },
    ]);
    expect(order.total).toBe('37.30');
    const { request, hold, notes } = documentForOrder(wooOrder(order), { giftCardFeeNames: ['cartão oferta'] });
    expect(hold).toBe(false);
    expect(request.Document.Lines.map((l) => [l.Code, l.TaxValue])).toEqual([['SKU-1', '23']]);
    expect(formatDecimal(computeTotals(request.Document.Lines).amount, 2)).toBe('12.30');
    expect(notes.map((n) => n.message).join('\n')).toMatch(/"Cartão oferta 25 €" is a gift card sold for 25\.00 without VAT: a multi-purpose voucher's sale is no supply/);
  });

  it('giftCardSales: hold: the same order waits for a person, with the reason', () => {
    const order = withCardSold([
      { name: 'Cartão oferta 25 €', price: '25.00' },
      { name: 'Caneca', price: '10.00', rate: '23' },
    ]);
    const { hold, holds } = documentForOrder(wooOrder(order), { giftCardFeeNames: ['cartão oferta'], giftCardSales: 'hold' });
    expect(hold).toBe(true);
    expect(holds.map((h) => h.code)).toContain('voucher-sold-held');
  });

  it('an order of gift cards only: nothing to invoice, said so (no supply), never a 0 % line', () => {
    const order = withCardSold([{ name: 'Cartão oferta 50 €', price: '50.00' }]);
    expect(() => documentForOrder(wooOrder(order), { giftCardFeeNames: ['cartão oferta'] })).toThrow(/only sells a gift card \("Cartão oferta 50 €"\) without VAT: a multi-purpose voucher's sale is no supply/);
  });
});
