import { documentForSale } from '../../law/order-to-document';
import type { MappingSettingsInput } from '../../law/mapping-settings';
import type { Sale, SaleAddress, SaleLine } from '../../law/sale';

/**
 * Issue 26, point 10: a voluntary tip is no consideration for the supply (CIVA art. 16(1)): left
 * off the invoice and held for a person, never refused as "goods that stay in Portugal"; the region
 * goods leave from may be the waybill's load address (art. 6(1)); a Portuguese NIF billed abroad
 * keeps the address's own post code and country on the document (art. 36(5)(a)).
 */

const address = (country: string, postcode: string, city: string, line1: string): SaleAddress => ({
  firstName: 'Jean',
  lastName: 'Dupont',
  company: '',
  line1,
  line2: '',
  city,
  region: '',
  postcode,
  country,
  email: '',
  phone: '',
});
const lisbon = address('PT', '1100-053', 'Lisboa', 'Rua Augusta 1');
const paris = address('FR', '75001', 'Paris', '10 Rue de Rivoli');

const line = (id: string, kind: SaleLine['kind'], name: string, net: string, rate: number): SaleLine => ({
  id,
  kind,
  name,
  sku: kind === 'product' ? 'SKU' : '',
  ...(kind === 'product' ? { productId: '91' } : {}),
  quantity: 1,
  subtotal: net,
  total: net,
  taxes: rate > 0 ? [{ rateId: `r${rate}`, amount: ((Number(net) * rate) / 100).toFixed(2) }] : [],
  taxClass: '',
  attributes: [],
});

function sale(lines: SaleLine[], billing = lisbon, nif?: string): Sale {
  const total = lines.reduce((sum, l) => sum + Number(l.total) + l.taxes.reduce((s, t) => s + Number(t.amount), 0), 0);
  const rates = [...new Set(lines.flatMap((l) => l.taxes.map((t) => t.rateId)))];
  return {
    platform: 'test',
    id: '7601',
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
    taxNumbers: nif ? [{ value: nif, source: '_billing_nif', businessField: false }] : [],
    attributes: [],
    needsShipping: true,
  };
}

const issue = { issueDate: '2026-11-20' };
const holdsOf = (input: Sale, settings: MappingSettingsInput = {}): string[] =>
  documentForSale(input, settings, issue)
    .holds.map((h) => h.code)
    .filter((c) => c !== 'invoice-deadline');
const madeiraLoad: MappingSettingsInput = { waybill: { loadAddress: { addressDetail: 'Rua do Aljube 5', city: 'Funchal', postalCode: '9000-067', countryCode: 'PT' } } };

describe('issue 26.10: tips, the dispatch region from the load address, a foreign address (CIVA art. 16(1), 6(1), 36(5)(a))', () => {
  it.each<[string, Sale, MappingSettingsInput, string[], string[]]>([
    ['CIVA art. 16(1): an untaxed tip is left off the invoice and held for a person', sale([line('1', 'product', 'Caneca', '10.00', 23), line('2', 'fee', 'Gorjeta', '2.00', 0)]), {}, ['tip-left-out'], ['23']],
    ['CIVA art. 16(5)(b): a taxed tip (a service charge) is a charge and stays', sale([line('1', 'product', 'Caneca', '10.00', 23), line('2', 'fee', 'Gorjeta', '2.00', 23)]), {}, [], ['23', '23']],
    ['CIVA art. 6(1): goods leave from the waybill\'s load address in Funchal: 22 % issued', sale([line('1', 'product', 'Caneca', '10.00', 22)]), madeiraLoad, [], ['22']],
    ['CIVA art. 6(1): from Funchal, the mainland\'s 23 % is held', sale([line('1', 'product', 'Caneca', '10.00', 23)]), madeiraLoad, ['rate-wrong-region'], ['23']],
    ['CIVA art. 6(1): dispatchRegion wins over the load address', sale([line('1', 'product', 'Caneca', '10.00', 23)]), { ...madeiraLoad, dispatchRegion: 'mainland' }, [], ['23']],
  ])('%s', (_name, input, settings, holds, rates) => {
    expect(holdsOf(input, settings)).toEqual(holds);
    expect(documentForSale(input, settings, issue).request.Document.Lines.map((l) => String(l.TaxValue))).toEqual(rates);
  });

  it('a fee whose name only contains the letters of a tip ("Tipo de embalagem") is no tip', () => {
    expect(() => documentForSale(sale([line('1', 'product', 'Caneca', '10.00', 23), line('2', 'fee', 'Tipo de embalagem', '2.00', 0)]), {}, issue)).toThrow(/0% VAT but no exemption reason/);
  });

  it('CIVA art. 36(5)(a): a Portuguese NIF billed to Paris keeps the Paris post code and country in the address', () => {
    const { request } = documentForSale(sale([line('1', 'product', 'Livro', '10.00', 23)], paris, '232013969'), {}, issue);
    expect(request.Client).toMatchObject({ NIF: '232013969', CountryCode: 'PT', Address: '10 Rue de Rivoli, 75001 Paris, FR', City: 'Paris' });
    expect(request.Client.PostCode).toBeUndefined();
    const consumer = documentForSale(sale([line('1', 'product', 'Livro', '10.00', 23)], paris), {}, issue).request.Client;
    expect(consumer).toMatchObject({ CountryCode: 'FR', PostCode: '75001', Address: '10 Rue de Rivoli' });
  });
});
