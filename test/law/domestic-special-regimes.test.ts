import { documentForSale } from '../../law/order-to-document';
import { isBindingHold } from '../../law/credit-limits';
import { mappingText } from '../../law/mapping-messages';
import type { MappingSettingsInput } from '../../law/mapping-settings';
import { OrderMappingError } from '../../law/mapping-errors';
import type { Sale, SaleAddress, SaleLine } from '../../law/sale';

/**
 * Issue 26, point 7: domestic special regimes can be invoiced. A code whose basis is a domestic goods
 * regime covers goods that stay in Portugal when the accountant names the product (or the fee); a
 * domestic reverse charge only a Portuguese business buyer; a code that would hide a taxable sale
 * (an art. 9 exemption on ordinary goods) stays refused, and the refusal names settings that work.
 */

const lisbon = (company = ''): SaleAddress => ({
  firstName: 'Joana',
  lastName: 'Reis',
  company,
  line1: 'Rua da Prata 80',
  line2: '',
  city: 'Lisboa',
  region: '',
  postcode: '1100-420',
  country: 'PT',
  email: '',
  phone: '',
});

const product = (rate: number, name = 'Cómoda antiga em pau-santo'): SaleLine => ({
  id: '1',
  kind: 'product',
  name,
  sku: 'USADO-1',
  productId: '61',
  quantity: 1,
  subtotal: '200.00',
  total: '200.00',
  taxes: rate > 0 ? [{ rateId: 'r23', amount: ((200 * rate) / 100).toFixed(2) }] : [],
  taxClass: '',
  attributes: [],
});

const fee = (name: string, total: string, rate: number): SaleLine => ({
  id: '2',
  kind: 'fee',
  name,
  sku: '',
  quantity: 1,
  subtotal: total,
  total,
  taxes: rate > 0 ? [{ rateId: 'r23', amount: ((Number(total) * rate) / 100).toFixed(2) }] : [],
  taxClass: '',
  attributes: [],
});

function sale(lines: SaleLine[], billing = lisbon(), nif?: string): Sale {
  const net = lines.reduce((sum, line) => sum + Number(line.total), 0);
  const tax = lines.reduce((sum, line) => sum + line.taxes.reduce((s, t) => s + Number(t.amount), 0), 0);
  return {
    platform: 'test',
    id: '7701',
    status: 'paid',
    payment: { state: 'paid', method: 'card', title: '', onDelivery: false },
    currency: 'EUR',
    pricesIncludeTax: false,
    paid: '2026-11-19T10:00:00Z',
    total: (net + tax).toFixed(2),
    billing,
    lines,
    discounts: [],
    taxRates: [{ id: 'r23', label: 'IVA 23%', percent: 23, code: '', compound: false, tax: tax.toFixed(2) }],
    customerNote: '',
    taxNumbers: nif ? [{ value: nif, source: '_billing_nif', businessField: false }] : [],
    attributes: [],
    needsShipping: true,
  };
}

const issue = { issueDate: '2026-11-20' };
const COMPANY_NIF = '509442013';
const byProduct = (code: string): MappingSettingsInput => ({ exemptions: { byProduct: [{ code, productIds: [61] }] } });

type Outcome = { code: string | undefined; holds: string[] } | { refused: RegExp };

function outcome(input: Sale, settings: MappingSettingsInput): Outcome {
  try {
    const mapped = documentForSale(input, settings, issue);
    return { code: mapped.request.Document.TaxExemptionReasonCode, holds: mapped.holds.map((h) => h.code).filter((c) => c !== 'invoice-deadline') };
  } catch (error) {
    if (error instanceof OrderMappingError) return { refused: new RegExp(error.code) };
    throw error;
  }
}

describe('issue 26.7: domestic special regimes can be invoiced (CIVA art. 16(6), DL 199/96, art. 2(1), 36(5)(e))', () => {
  it.each<[string, Sale, MappingSettingsInput, Outcome]>([
    ['DL 199/96 (M13): second-hand goods under the margin scheme, named by product, staying in Portugal', sale([product(0)]), byProduct('M13'), { code: 'M13', holds: [] }],
    ['DL 199/96 (M15): antiques under the margin scheme', sale([product(0)]), byProduct('M15'), { code: 'M15', holds: [] }],
    ['CIVA art. 2(2), 3(4) (M99): not subject, where its article applies', sale([product(0)]), byProduct('M99'), { code: 'M99', holds: [] }],
    ['CIVA art. 2(1)(j) (M31): a domestic reverse charge to a Portuguese business', sale([product(0)], lisbon('Obras Lda'), COMPANY_NIF), byProduct('M31'), { code: 'M31', holds: [] }],
    ['CIVA art. 2(1)(j) (M31): never to a consumer, who cannot account for the VAT', sale([product(0)]), byProduct('M31'), { refused: /zero-vat-no-reason/ }],
    ['CIVA art. 9 (M07) on ordinary goods would hide a taxable sale: refused', sale([product(0)]), byProduct('M07'), { refused: /zero-vat-no-reason/ }],
    ['CIVA art. 53 (M10): the shop-wide regime covers all its goods', sale([product(0)]), { exemptions: { regime: 'M10', byProduct: [{ code: 'M13', productIds: [61] }] } }, { code: 'M10', holds: [] }],
    ['CIVA art. 16(6) (M01): a returnable packaging deposit with its own code (exemptions.byFee), the goods taxed', sale([product(23, 'Garrafão de água 5 L'), fee('Depósito de vasilhame', '0.50', 0)]), { exemptions: { byFee: [{ code: 'M01', names: ['vasilhame'] }] } }, { code: 'M01', holds: [] }],
    ['CIVA art. 16(5)(b): a deposit without a code follows the goods and is refused at 0 %', sale([product(23, 'Garrafão de água 5 L'), fee('Depósito de vasilhame', '0.50', 0)]), {}, { refused: /zero-vat-no-reason/ }],
    ['CIVA art. 2(1)(c): goods under the margin scheme taxed by the shop are held (the VAT written is owed)', sale([product(23)]), byProduct('M13'), { code: undefined, holds: ['taxed-despite-code'] }],
    ['CIVA art. 2(1)(c): a deposit coded M01 taxed by the shop is held', sale([product(23, 'Garrafão de água 5 L'), fee('Depósito de vasilhame', '0.50', 23)]), { exemptions: { byFee: [{ code: 'M01', names: ['vasilhame'] }] } }, { code: undefined, holds: ['taxed-despite-code'] }],
    ['CIVA art. 2(1)(c): M31 taxed to a consumer is right (the code does not cover a consumer)', sale([product(23)]), byProduct('M31'), { code: undefined, holds: [] }],
  ])('%s', (_name, input, settings, expected) => {
    expect(outcome(input, settings)).toEqual(expected);
  });

  it('CIVA art. 2(1)(c): the holds of a taxed line under a domestic code bind (no release issues it as it is)', () => {
    const mapped = documentForSale(sale([product(23)]), byProduct('M13'), issue);
    expect(mapped.holds.filter((h) => h.code === 'taxed-despite-code').every(isBindingHold)).toBe(true);
  });

  it('CIVA art. 36(5)(e): the refusal names settings that can work (exemptions.byProduct with a domestic code, exemptions.byFee)', () => {
    const refusal = (settings: MappingSettingsInput): OrderMappingError => {
      try {
        documentForSale(sale([product(0)]), settings, issue);
      } catch (error) {
        if (error instanceof OrderMappingError) return error;
      }
      throw new Error('not refused');
    };
    const none = refusal({});
    expect(none.message).toContain('unless its basis is a domestic regime (exemptions.byProduct, or exemptions.byFee for a fee: M01, M11, M12, M13, M14, M15, M19, M21, M25, M99');
    expect(mappingText('pt', none.detail)).toContain('exemptions.byFee para uma taxa');
    const blocked = refusal(byProduct('M07'));
    expect(blocked.message).toContain('M07 (CIVA art. 9: exempt domestic operations (health, education, ...)) on ordinary goods would hide a taxable sale');
    const consumer = refusal(byProduct('M31'));
    expect(consumer.message).toContain('reverse-charged only by a Portuguese business buyer');
  });

  it('the setting refuses a code that is not per-product (exemptions.byFee)', () => {
    expect(() => documentForSale(sale([product(0)]), { exemptions: { byFee: [{ code: 'M16', names: ['taxa'] }] } }, issue)).toThrow(/must be one of/);
  });
});
