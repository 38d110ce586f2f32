import { computeTotals } from '../../client/totals';
import { formatDecimal } from '../../client/money';
import { isBindingHold } from '../../law/credit-limits';
import { documentForSale } from '../../law/order-to-document';
import type { MappingSettingsInput } from '../../law/mapping-settings';
import type { Sale, SaleAddress, SaleLine, SupplyNature } from '../../law/sale';
import type { VatNumberVerdict } from '../../law/vat-number';

/**
 * Issue 26, the defects found after points 1-6: a multi-purpose voucher sold as a fee line is held
 * like one sold as a product (CIVA art. 7(13)-(14), 2(1)(c)); the shipping and fees of a service
 * taxed where it is performed are never 0 % either (art. 6(7), 16(5)(b)).
 */

const address = (country: string, postcode: string, company = ''): SaleAddress => ({
  firstName: 'Hans',
  lastName: 'Weber',
  company,
  line1: 'Hauptstraße 1',
  line2: '',
  city: 'Berlin',
  region: '',
  postcode,
  country,
  email: '',
  phone: '',
});

const line = (id: string, kind: SaleLine['kind'], name: string, net: string, rate: number, nature?: SupplyNature): SaleLine => ({
  id,
  kind,
  name,
  sku: kind === 'product' ? `SKU-${id}` : '',
  ...(kind === 'product' ? { productId: `8${id}` } : {}),
  quantity: 1,
  subtotal: net,
  total: net,
  taxes: rate > 0 ? [{ rateId: `r${rate}`, amount: ((Number(net) * rate) / 100).toFixed(2) }] : [],
  taxClass: '',
  ...(nature ? { nature } : {}),
  attributes: [],
});

function sale(lines: SaleLine[], billing: SaleAddress, vat?: string): Sale {
  const total = lines.reduce((sum, l) => sum + Number(l.total) + l.taxes.reduce((s, t) => s + Number(t.amount), 0), 0);
  const rates = [...new Set(lines.flatMap((l) => l.taxes.map((t) => t.rateId)))];
  return {
    platform: 'test',
    id: '7801',
    status: 'paid',
    payment: { state: 'paid', method: 'card', title: '', onDelivery: false },
    currency: 'EUR',
    pricesIncludeTax: false,
    paid: '2026-11-19T10:00:00Z',
    total: total.toFixed(2),
    billing,
    lines,
    discounts: [],
    taxRates: rates.map((id) => ({ id, label: id, percent: Number(id.slice(1)), code: '', compound: false })),
    customerNote: '',
    taxNumbers: vat ? [{ value: vat, source: 'vat', businessField: true }] : [],
    attributes: [],
    needsShipping: false,
  };
}

const issue = { issueDate: '2026-11-20' };
const lisbon = address('PT', '1100-053');
const berlin = address('DE', '10115', 'Beispiel GmbH');
const valid: VatNumberVerdict = { countryCode: 'DE', number: '123456789', valid: true };
const holdsOf = (input: Sale, settings: MappingSettingsInput, verdict?: VatNumberVerdict): string[] =>
  documentForSale(input, settings, issue, verdict)
    .holds.map((h) => h.code)
    .filter((c) => c !== 'invoice-deadline');

describe('CIVA art. 7(13)-(14), 2(1)(c): a multi-purpose voucher sold as a fee line', () => {
  it.each<[string, Sale, MappingSettingsInput, string[]]>([
    ['CIVA art. 7(13)-(14): a voucher sold as a taxed fee is held, as one sold as a product', sale([line('1', 'product', 'Livro', '20.00', 6), line('2', 'fee', 'Cartão oferta', '2.00', 23)], lisbon), { giftCardFeeNames: ['cartão oferta'] }, ['voucher-sale-taxed']],
    ['CIVA art. 7(13)-(14): not re-rated to the goods\' rate either (its own rule)', sale([line('1', 'product', 'Livro', '20.00', 6), line('2', 'fee', 'Cartão oferta', '2.00', 23)], lisbon), { giftCardFeeNames: ['cartão oferta'], shippingRate: { otherRate: 'goods-rate' } }, ['voucher-sale-taxed']],
    ['CIVA art. 16(5)(b): a fee not named as a voucher follows the goods (held at another rate)', sale([line('1', 'product', 'Livro', '20.00', 6), line('2', 'fee', 'Embalagem', '2.00', 23)], lisbon), { giftCardFeeNames: ['cartão oferta'] }, ['fee-rate-differs']],
  ])('%s', (_name, input, settings, expected) => {
    const mapped = documentForSale(input, settings, issue);
    expect(mapped.holds.map((h) => h.code).filter((c) => c !== 'invoice-deadline')).toEqual(expected);
    // The voucher's line keeps the shop's 23 %: nothing re-rated it.
    expect(mapped.request.Document.Lines.map((l) => String(l.TaxValue))).toEqual(['6', '23']);
    expect(mapped.holds.filter((h) => h.code === 'voucher-sale-taxed').every(isBindingHold)).toBe(true);
  });
});

describe('CIVA art. 6(7), 16(5)(b): the charges of a service taxed where performed', () => {
  const services: MappingSettingsInput = { lineTypes: { default: 'S' } };
  it.each<[string, Sale, MappingSettingsInput, { code?: string; holds: string[] } | { refused: RegExp }]>([
    [
      'CIVA art. 6(7), 16(5)(b): a booking fee on an event ticket to an EU business is never 0 % (refused)',
      sale([line('1', 'product', 'Bilhete: Festival de Lisboa', '100.00', 23, 'event-admission'), line('2', 'fee', 'Taxa de reserva', '5.00', 0)], berlin, 'DE123456789'),
      services,
      { refused: /taxed where it is performed/ },
    ],
    [
      'CIVA art. 6(7), 16(5)(b): ticket and booking fee both at 23 %: issued',
      sale([line('1', 'product', 'Bilhete: Festival de Lisboa', '100.00', 23, 'event-admission'), line('2', 'fee', 'Taxa de reserva', '5.00', 23)], berlin, 'DE123456789'),
      services,
      { holds: [] },
    ],
    [
      'CIVA art. 6(6)(a): an ordinary service and its fee to an EU business: M40',
      sale([line('1', 'product', 'Consultoria', '100.00', 0), line('2', 'fee', 'Taxa de reserva', '5.00', 0)], berlin, 'DE123456789'),
      services,
      { code: 'M40', holds: [] },
    ],
  ])('%s', (_name, input, settings, expected) => {
    if ('refused' in expected) {
      expect(() => documentForSale(input, settings, issue, valid)).toThrow(expected.refused);
      return;
    }
    const mapped = documentForSale(input, settings, issue, valid);
    expect({ code: mapped.request.Document.TaxExemptionReasonCode, holds: holdsOf(input, settings, valid) }).toEqual(expected);
    expect(formatDecimal(computeTotals(mapped.request.Document.Lines).amount, 2)).toBe(input.total);
  });
});
