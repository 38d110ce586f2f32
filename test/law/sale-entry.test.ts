import { formatDecimal } from '../../client/money';
import { computeTotals } from '../../client/totals';
import { documentForSale } from '../../law/order-to-document';
import { creditNoteForRefund } from '../../law/refund-to-credit-note';
import { waybillForSale } from '../../law/order-to-waybill';
import { OrderMappingError } from '../../law/mapping-errors';
import type { Sale } from '../../law/sale';
import { address, refund } from './support/neutral-sale';

/**
 * The law's entry points over the neutral sale (law/sale.ts), with no platform: ids that are no
 * numbers, amounts as the shop charged them, a refund counted as what goes back to the buyer.
 */


function sale(over: Partial<Sale> = {}): Sale {
  return {
    platform: 'shopify',
    id: '5500001123456789012',
    number: '1042',
    status: 'paid',
    payment: { state: 'paid', method: 'shopify_payments', title: 'Cartão', onDelivery: false },
    currency: 'EUR',
    pricesIncludeTax: true,
    created: '2026-11-19T09:58:00Z',
    paid: '2026-11-19T10:00:00Z',
    total: '28.92',
    billing: address(),
    lines: [
      {
        id: '13001',
        kind: 'product',
        name: 'Caneca de grés',
        sku: 'CAN-01',
        productId: '7700',
        quantity: 2,
        subtotal: '19.51',
        total: '19.51',
        taxes: [{ rateId: 'PT-23', amount: '4.49' }],
        taxClass: '',
        nature: 'goods',
        attributes: [],
      },
      { id: '14001', kind: 'shipping', name: 'CTT Expresso', sku: '', quantity: 1, subtotal: '4.00', total: '4.00', taxes: [{ rateId: 'PT-23', amount: '0.92' }], taxClass: '', attributes: [] },
    ],
    discounts: [],
    taxRates: [{ id: 'PT-23', label: 'IVA', percent: 23, code: '', compound: false, tax: '5.41' }],
    customerNote: '',
    taxNumbers: [],
    attributes: [],
    ...over,
  };
}


describe('documentForSale: the law over a sale from any platform', () => {
  it('CIVA art. 36: a mainland sale of goods at 23 %, shipping following them, total to the cent', () => {
    const { request, hold } = documentForSale(sale(), {}, { issueDate: '2026-11-20' });
    expect(hold).toBe(false);
    expect(request.Document.Lines.map((l) => [l.Code, l.Quantity, l.TaxValue])).toEqual([
      ['CAN-01', '2', '23'],
      ['PORTES', '1', '23'],
    ]);
    expect(formatDecimal(computeTotals(request.Document.Lines).amount, 2)).toBe('28.92');
    expect(request.Document.ExternalId).toBe('wc-5500001123456789012');
    expect(request.Document.Description).toBe('Encomenda #1042 de 2026-11-19');
    expect(request.Client).toMatchObject({ Name: 'Ana Sousa', NIF: '999999990', PostCode: '4050-262' });
  });

  it('a tax number the buyer typed in a business field makes a company (CIVA art. 36(5)(a))', () => {
    const { request } = documentForSale(sale({ taxNumbers: [{ value: '509442013', source: 'company.vatNumber', businessField: true }] }), {}, { issueDate: '2026-11-20' });
    expect(request.Client.NIF).toBe('509442013');
  });

  it('a draft is never invoiced; an unpaid sale only when its status is listed', () => {
    expect(() => documentForSale(sale({ payment: { state: 'draft', method: '', title: '', onDelivery: false }, status: 'open' }))).toThrow(OrderMappingError);
    expect(() => documentForSale(sale({ payment: { state: 'unpaid', method: '', title: '', onDelivery: false }, status: 'pending' }))).toThrow(/pending/);
  });

  it('a nature the platform tells decides goods or service (CIVA art. 6(6)): a service line to a consumer keeps its rate', () => {
    const base = sale();
    const services = { ...base, lines: base.lines.map((line) => (line.kind === 'product' ? { ...line, nature: 'service' as const } : line)) };
    const { request } = documentForSale(services, { documentType: 'S' }, { issueDate: '2026-11-20' });
    // A service sale is simplified only up to EUR 100 (art. 40(1)(b)): 28.92 is.
    expect(request.Document.Type).toBe('S');
  });
});

describe('creditNoteForRefund(sale, refund): CIVA art. 29(7), the credit note corrects its invoice', () => {
  it('credits the refunded unit at the invoice rate, to the refund amount', () => {
    const { request, hold } = creditNoteForRefund(sale(), refund(), 'FR 2026/10', {}, { issueDate: '2026-11-20' });
    expect(hold).toBe(false);
    expect(request.Document.Type).toBe('C');
    expect(request.Document.DocumentReference).toBe('FR 2026/10');
    expect(request.Document.Lines.map((l) => [l.Code, l.Quantity, l.TaxValue])).toEqual([['CAN-01', '1', '23']]);
    expect(request.Document.Description).toBe('Reembolso 977001 de 2026-11-20 da encomenda #1042: Partida');
  });

  it('art. 78(2): never more than the invoice, earlier refunds counted', () => {
    const earlier = refund({ id: 'r-early', amount: '24.00', lines: [{ ...refund().lines[0], id: 'e1', quantity: 2, total: '19.51', taxes: [{ rateId: 'PT-23', amount: '4.49' }] }] });
    const { hold, holds } = creditNoteForRefund(sale(), refund(), 'FR 2026/10', {}, { issueDate: '2026-11-20' }, [earlier]);
    expect(hold).toBe(true);
    expect(holds.map((h) => h.code)).toContain('credit-over-line');
  });
});

describe('waybillForSale', () => {
  it('carries the goods only, to the shipping address', () => {
    const loadAddress = { addressDetail: 'Armazém 1', city: 'Maia', postalCode: '4470-001', countryCode: 'PT' };
    const { request } = waybillForSale(sale({ shipping: address({ line1: 'Rua do Sol 3', city: 'Braga', postcode: '4700-001' }) }), { waybill: { loadAddress } }, new Date('2026-11-20T10:00:00Z'));
    expect(request.Waybill.Lines.map((l) => l.Code)).toEqual(['CAN-01']);
    expect(request.Waybill.DestinationAddress).toMatchObject({ City: 'Braga', PostalCode: '4700-001' });
  });
});
