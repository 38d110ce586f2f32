import { formatDecimal } from '../../client/money';
import { computeTotals } from '../../client/totals';
import { creditNoteForRefund, documentForOrder } from '../../platforms/woocommerce/documents';
import type { MappingSettingsInput } from '../../law/mapping-settings';
import { buildOrder, buildRefund } from './support/woo-cart';
import { wooOrder, wooRefund } from '../support/payloads';

/**
 * Issue 26.6: a credit note corrects the invoice it references (CIVA art. 29(7)) and the seller's
 * regularisation is limited to the tax charged (art. 78(2)): refunded shipping is credited at the
 * rates the invoice carried (re-rated or split by `shippingRate`), not at the shop's.
 */
const order = buildOrder({
  id: 8801,
  items: [
    { name: 'Livro', sku: 'LIV', productId: 1, price: '20.00', quantity: 1, rate: '6' },
    { name: 'Caneca', sku: 'CAN', productId: 2, price: '10.00', quantity: 1, rate: '23' },
  ],
  shipping: [{ title: 'CTT', cost: '5.00', rate: '23' }],
  billing: { first_name: 'Ana', country: 'PT', postcode: '1100-053', city: 'Lisboa', address_1: 'Rua 1' },
});
const bookOnly = buildOrder({
  id: 8802,
  items: [{ name: 'Livro', sku: 'LIV', productId: 1, price: '20.00', quantity: 1, rate: '6' }],
  shipping: [{ title: 'CTT', cost: '5.00', rate: '23' }],
  billing: { first_name: 'Ana', country: 'PT', postcode: '1100-053', city: 'Lisboa', address_1: 'Rua 1' },
});
const issue = { issueDate: '2026-11-20' };

describe('CIVA art. 29(7), 78(2): refunded shipping credited as its invoice carried it', () => {
  it.each<[string, Record<string, unknown>, MappingSettingsInput, string[]]>([
    ['art. 16(5)(b) goods-rate: shipping re-rated to the book\'s 6 %, credited at 6 %', bookOnly, { shippingRate: { otherRate: 'goods-rate' } }, ['6']],
    ['art. 16(5)(b) proportional: shipping split 6 % / 23 %, credited in the same split', order, { shippingRate: { mixedGoods: 'proportional' } }, ['6', '23']],
    ['as charged: shipping at the shop\'s 23 %, credited at 23 %', order, {}, ['23']],
  ])('%s', (_name, sale, settings, rates) => {
    const invoice = documentForOrder(wooOrder(sale), settings, issue);
    const invoiceShippingRates = invoice.request.Document.Lines.filter((l) => l.Code === 'PORTES').map((l) => String(l.TaxValue));
    expect(invoiceShippingRates).toEqual(rates);
    const refund = buildRefund(sale, { id: 1, shipping: true, dateGmt: '2026-11-19T10:00:00' });
    const credit = creditNoteForRefund(wooOrder(sale), wooRefund(refund), 'FR 2026/1', settings, issue);
    const lines = credit.request.Document.Lines;
    expect(lines.map((l) => String(l.TaxValue))).toEqual(rates);
    expect(formatDecimal(computeTotals(lines).amount, 2)).toBe(refund.amount);
    expect(credit.hold).toBe(false);
  });
});

/**
 * Issue 26.5 with 26.6: a fee follows the goods (art. 16(5)(b)), so a refunded fee is credited at
 * the rates its invoice carried it (art. 29(7), 78(2)), through the same planning as shipping.
 */
const withFee = (id: number, items: Parameters<typeof buildOrder>[0]['items']) =>
  buildOrder({
    id,
    items,
    fees: [{ name: 'Embalagem', amount: '2.00', rate: '23' }],
    billing: { first_name: 'Ana', country: 'PT', postcode: '1100-053', city: 'Lisboa', address_1: 'Rua 1' },
  });
const bookAndFee = withFee(8803, [{ name: 'Livro', sku: 'LIV', productId: 1, price: '20.00', quantity: 1, rate: '6' }]);
const mixedAndFee = withFee(8804, [
  { name: 'Livro', sku: 'LIV', productId: 1, price: '20.00', quantity: 1, rate: '6' },
  { name: 'Caneca', sku: 'CAN', productId: 2, price: '10.00', quantity: 1, rate: '23' },
]);

describe('CIVA art. 29(7), 78(2) with art. 16(5)(b): a refunded fee credited as its invoice carried it', () => {
  it.each<[string, Record<string, unknown>, MappingSettingsInput, string[]]>([
    ['art. 16(5)(b) goods-rate: packaging re-rated to the book\'s 6 %, credited at 6 %', bookAndFee, { shippingRate: { otherRate: 'goods-rate' } }, ['6']],
    ['art. 16(5)(b) proportional: packaging split 6 % / 23 %, credited in the same split', mixedAndFee, { shippingRate: { mixedGoods: 'proportional' } }, ['6', '23']],
    ['as charged: packaging at the shop\'s 23 %, credited at 23 %', mixedAndFee, {}, ['23']],
  ])('%s', (_name, sale, settings, rates) => {
    const invoice = documentForOrder(wooOrder(sale), settings, issue);
    expect(invoice.hold).toBe(false);
    expect(invoice.request.Document.Lines.filter((l) => l.Code === 'TAXA').map((l) => String(l.TaxValue))).toEqual(rates);
    const refund = buildRefund(sale, { id: 1, fees: true, dateGmt: '2026-11-19T10:00:00' });
    const credit = creditNoteForRefund(wooOrder(sale), wooRefund(refund), 'FR 2026/1', settings, issue);
    const lines = credit.request.Document.Lines;
    expect(lines.map((l) => [l.Code, String(l.TaxValue)])).toEqual(rates.map((rate) => ['TAXA', rate]));
    expect(formatDecimal(computeTotals(lines).amount, 2)).toBe(refund.amount);
    // Within the invoice's lines and rates: no credit-over-rate hold.
    expect(credit.hold).toBe(false);
  });
});
