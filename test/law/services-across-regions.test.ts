import { documentForSale } from '../../law/order-to-document';
import { mappingText } from '../../law/mapping-messages';
import type { MappingSettingsInput } from '../../law/mapping-settings';
import type { Sale, SaleAddress } from '../../law/sale';

/**
 * Issue 26, point 3: a service to a Portuguese business takes the rate of the region where the
 * business is established (CIVA art. 6(6)(a) as adapted to the regions), whatever region the shop
 * is in; a consumer pays the rate of the shop's region (art. 6(6)(b)). A business whose region the
 * address does not tell is held with the reason.
 */

const address = (postcode: string, company: string, country = 'PT'): SaleAddress => ({
  firstName: 'Rita',
  lastName: 'Freitas',
  company,
  line1: 'Rua do Aljube 10',
  line2: '',
  city: 'Cidade',
  region: '',
  postcode,
  country,
  email: '',
  phone: '',
});

interface Row {
  buyer: SaleAddress;
  nif?: string;
  rate: number;
}

function serviceSale({ buyer, nif, rate }: Row): Sale {
  const tax = rate.toFixed(2);
  return {
    platform: 'test',
    id: '7301',
    status: 'paid',
    payment: { state: 'paid', method: 'card', title: '', onDelivery: false },
    currency: 'EUR',
    pricesIncludeTax: false,
    paid: '2026-11-19T10:00:00Z',
    total: (100 + rate).toFixed(2),
    billing: buyer,
    lines: [{ id: '1', kind: 'product', name: 'Consultoria fiscal', sku: 'CONS-1', productId: '51', quantity: 1, subtotal: '100.00', total: '100.00', taxes: [{ rateId: 'r', amount: tax }], taxClass: '', nature: 'service', attributes: [] }],
    discounts: [],
    taxRates: [{ id: 'r', label: 'IVA', percent: rate, code: '', compound: false, tax }],
    customerNote: '',
    taxNumbers: nif ? [{ value: nif, source: '_billing_nif', businessField: false }] : [],
    attributes: [],
    needsShipping: false,
  };
}

const issue = { issueDate: '2026-11-20' };
const COMPANY_NIF = '509442013';
const lisbonCompany = address('1100-053', 'Lisboa Contas, Lda.');
const funchalCompany = address('9000-055', 'Funchal Contas, Lda.');
const pontaDelgadaCompany = address('9500-050', 'Açores Contas, Lda.');
const companyWithoutPostcode = address('', 'Sem Código, Lda.');
const funchalConsumer = address('9000-055', '');
const madeiraShop: MappingSettingsInput = { dispatchRegion: 'madeira' };
const mainlandShop: MappingSettingsInput = { dispatchRegion: 'mainland' };

function holds(row: Row, settings: MappingSettingsInput): string[] {
  return documentForSale(serviceSale(row), settings, issue)
    .holds.map((h) => h.code)
    .filter((code) => code !== 'invoice-deadline');
}

describe('issue 26.3: B2B services across the regions (CIVA art. 6(6)(a) as adapted to the regions)', () => {
  it.each<[string, Row, MappingSettingsInput, string[]]>([
    ["CIVA art. 6(6)(a): a Madeira shop's service to a Lisbon company is 23 %", { buyer: lisbonCompany, nif: COMPANY_NIF, rate: 23 }, madeiraShop, []],
    ["CIVA art. 6(6)(a): a Madeira shop's service to a Lisbon company at Madeira's 22 % is held", { buyer: lisbonCompany, nif: COMPANY_NIF, rate: 22 }, madeiraShop, ['rate-wrong-region']],
    ["CIVA art. 6(6)(a): a mainland shop's service to a Funchal company is 22 %", { buyer: funchalCompany, nif: COMPANY_NIF, rate: 22 }, mainlandShop, []],
    ["CIVA art. 6(6)(a): a mainland shop's service to a Funchal company at the shop's 23 % is held", { buyer: funchalCompany, nif: COMPANY_NIF, rate: 23 }, mainlandShop, ['rate-wrong-region']],
    ["CIVA art. 6(6)(a): a mainland shop's service to a Ponta Delgada company is 16 %", { buyer: pontaDelgadaCompany, nif: COMPANY_NIF, rate: 16 }, mainlandShop, []],
    ['CIVA art. 6(6)(a): a company whose address gives no region is held with the reason', { buyer: companyWithoutPostcode, nif: COMPANY_NIF, rate: 23 }, mainlandShop, ['service-buyer-region-unknown']],
    ["CIVA art. 6(6)(b): a consumer in Funchal pays the mainland shop's 23 %", { buyer: funchalConsumer, rate: 23 }, mainlandShop, []],
    ["CIVA art. 6(6)(b): a consumer in Funchal at Madeira's 22 % from a mainland shop is held", { buyer: funchalConsumer, rate: 22 }, mainlandShop, ['rate-wrong-region']],
    ['CIVA art. 6(6)(b): a company without a NIF is not known as a business: the shop\'s region', { buyer: funchalCompany, rate: 23 }, mainlandShop, []],
  ])('%s', (_name, row, settings, expected) => {
    expect(holds(row, settings)).toEqual(expected);
  });

  it('CIVA art. 6(6)(a): the reasons name the region of the business and, for an unknown one, what to fix', () => {
    const wrong = documentForSale(serviceSale({ buyer: funchalCompany, nif: COMPANY_NIF, rate: 23 }), mainlandShop, issue).holds.find((h) => h.code === 'rate-wrong-region');
    expect(wrong).toBeDefined();
    if (!wrong) return;
    expect(mappingText('en', wrong)).toContain('a service to a Portuguese business is taxed where the business is established');
    expect(mappingText('en', wrong)).toContain('22/12/4');
    expect(mappingText('pt', wrong)).toContain('alínea a)');
    const unknown = documentForSale(serviceSale({ buyer: companyWithoutPostcode, nif: COMPANY_NIF, rate: 23 }), mainlandShop, issue).holds.find((h) => h.code === 'service-buyer-region-unknown');
    expect(unknown).toBeDefined();
    if (!unknown) return;
    expect(mappingText('pt', unknown)).toContain('código postal português da empresa');
  });
});
