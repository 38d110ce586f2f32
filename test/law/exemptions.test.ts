import { TAX_EXEMPTION_CODES } from '../../client/input-rules';
import { EXEMPTION_CODES, exemptionCodeInfo } from '../../law/exemption-codes';
import { productExemptionFromShop } from '../../law/exemption-rules';
import { MappingSettingsInput, parseMappingSettings } from '../../law/mapping-settings';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import { buildOrder, Cart } from './support/woo-cart';
import { wooOrder } from '../support/payloads';

/** CIVA art. 36(5)(e): the exemption code is the real reason of each 0% line (exemption-rules.ts). */

describe("the tax authority's exemption-code table as data (exemption-codes.ts)", () => {
  it('holds every code the service accepts, and M08 (retired at the end of 2022) only as retired', () => {
    const current = EXEMPTION_CODES.filter((c) => c.use !== 'retired' || c.code === 'M26').map((c) => c.code);
    expect(new Set(current)).toEqual(TAX_EXEMPTION_CODES);
    expect(exemptionCodeInfo('M08')).toMatchObject({ use: 'retired', until: '2022-12-31' });
  });

  it.each([
    ['M05', 'automatic', /CIVA art\. 14/],
    ['M16', 'automatic', /RITI art\. 14/],
    ['M40', 'automatic', /CIVA art\. 6\(6\)\(a\)/],
    ['M10', 'regime', /CIVA art\. 53/],
    // 2025 addition: services placed outside Portugal by art. 6(7) and following (not a catch-all "not subject").
    ['M44', 'per-product', /CIVA art\. 6\(7\) and following/],
    ['M45', 'by-hand', /CIVA art\. 58-A/],
    ['M46', 'by-hand', /DL 19\/2017/],
    ['M26', 'retired', /Lei 17\/2023/],
    ['M99', 'per-product', /3\(7\)/],
  ])('%s is %s (%s)', (code, use, basis) => {
    expect(exemptionCodeInfo(code)).toMatchObject({ use, basis: expect.stringMatching(basis) });
  });
});

const lisbon = { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua Augusta 100', city: 'Lisboa', postcode: '1100-053', country: 'PT' };

function order(extra: Partial<Cart>): Record<string, unknown> {
  return buildOrder({
    id: 7200,
    items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 1, rate: '23' }],
    billing: lisbon,
    dateCreatedGmt: '2026-03-10T10:00:00',
    ...extra,
  });
}

describe('CIVA art. 3(7): a free untaxed line (sample, gift) is no supply and does not block the order', () => {
  it('a 0.00 line without tax is left off with a note; the rest is invoiced', () => {
    const withSample = order({
      items: [
        { name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 1, rate: '23' },
        { name: 'Amostra de chá', sku: 'AMO', productId: 2, price: '0.00', quantity: 1 },
      ],
    });
    const { request, notes, hold } = documentForOrder(wooOrder(withSample));
    expect(hold).toBe(false);
    expect(request.Document.Lines.map((l) => l.Code)).toEqual(['CAN']);
    expect(request.Document.TaxExemptionReasonCode).toBeUndefined();
    expect(notes.map((n) => n.message)).toContain('Line "Amostra de chá" is free and untaxed (a sample or gift, CIVA art. 3(7): no supply): left off the document');
  });

  it('a 0.00 line taxed at 23 % stays (it needs no exemption code)', () => {
    const { request } = documentForOrder(wooOrder(order({ items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 1, rate: '23' }, { name: 'Brinde', sku: 'BR', productId: 3, price: '0.00', quantity: 1, rate: '23' }] })));
    expect(request.Document.Lines.map((l) => [l.Code, l.TaxValue])).toEqual([['CAN', '23'], ['BR', '23']]);
  });
});

describe('CIVA art. 1(1)(a), 4(1): a donation is never a document line', () => {
  it.each<[string, Partial<Cart>, MappingSettingsInput, string]>([
    ['a fee named "Donativo" (untaxed)', { fees: [{ name: 'Donativo Cruz Vermelha', amount: '2.00', taxable: false }] }, {}, 'Donativo Cruz Vermelha'],
    ['a fee named "Doação" whatever the accents', { fees: [{ name: 'DOACAO para o banco alimentar', amount: '1.50', taxable: false }] }, {}, 'DOACAO para o banco alimentar'],
    ['a configured donation product', { items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 1, rate: '23' }, { name: 'Apoio ao projeto', sku: 'APOIO', productId: 9, price: '5.00', quantity: 1 }] }, { exemptions: { donationProductIds: [9] } }, 'Apoio ao projeto'],
    ['a word the shop added', { fees: [{ name: 'Arredondamento solidário', amount: '0.40', taxable: false }] }, { exemptions: { donationWords: ['solidário'] } }, 'Arredondamento solidário'],
  ])('%s: held, naming it; the invoice leaves it out (never an M-coded 0% line)', (_name, extra, settings, name) => {
    const built = order(extra);
    const { request, notes, hold } = documentForOrder(wooOrder(built), settings);
    expect(hold).toBe(true);
    expect(request.Document.Lines.map((l) => l.Code)).toEqual(['CAN']);
    expect(request.Document.TaxExemptionReasonCode).toBeUndefined();
    expect(notes.map((n) => n.message).join('\n')).toContain(`Held: "${name}" is a donation of`);
    expect(notes.map((n) => n.message).join('\n')).toMatch(/no consideration for a supply \(CIVA art\. 1\(1\)\(a\), 4\(1\)\)/);
  });

  it('a fee that merely mentions no donation word is a charge as before', () => {
    const { hold, request } = documentForOrder(wooOrder(order({ fees: [{ name: 'Embrulho', amount: '1.00', rate: '23' }] })));
    expect(hold).toBe(false);
    expect(request.Document.Lines.map((l) => l.Code)).toEqual(['CAN', 'TAXA']);
  });
});

describe('codes per product, category or SKU, like the goods/service rules', () => {
  it("a category's code reaches the product through the shop's categories (filled by the connector)", () => {
    const settings = parseMappingSettings({ exemptions: { byProduct: [{ code: 'M07', categories: ['formacao'] }, { code: 'M99', categories: [77] }] } });
    expect(productExemptionFromShop({ id: 5, virtual: true, downloadable: false, categories: [{ id: 40, slug: 'formacao' }] }, settings)).toBe('M07');
    expect(productExemptionFromShop({ id: 6, virtual: true, downloadable: false, categories: [{ id: 77, slug: 'outros' }] }, settings)).toBe('M99');
    expect(productExemptionFromShop({ id: 7, virtual: true, downloadable: false, categories: [{ id: 1, slug: 'livros' }] }, settings)).toBeUndefined();
  });

  it('CIVA art. 9 (M07): a course at 0 % with its category code, filled in shopProductCodes', () => {
    const course = order({ items: [{ name: 'Curso de primeiros socorros', sku: 'CURSO', productId: 5, price: '60.00', quantity: 1 }] });
    const { request } = documentForOrder(wooOrder(course), { lineTypes: { default: 'S' }, exemptions: { shopProductCodes: { '5': 'M07' } } });
    expect(request.Document.TaxExemptionReasonCode).toBe('M07');
  });

  it('CIVA art. 36(5)(e): a course without any code configured is refused by name, never stamped with a catch-all', () => {
    const course = order({ items: [{ name: 'Curso de primeiros socorros', sku: 'CURSO', productId: 5, price: '60.00', quantity: 1 }] });
    expect(() => documentForOrder(wooOrder(course), { lineTypes: { default: 'S' } })).toThrow(/"Curso de primeiros socorros" has 0% VAT but no exemption reason applies/);
  });
});
