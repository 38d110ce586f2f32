import { documentForOrder } from '../../platforms/woocommerce/documents';
import { buildOrder, Cart } from './support/woo-cart';
import { wooOrder } from '../support/payloads';

/** Buyer identity: CIVA art. 36(5)(a), 36(16); DL 28/2019 (the former art. 36(15) revoked). */

function order(billing: Cart['billing'], meta: Cart['meta'] = [], price = '10.00'): Record<string, unknown> {
  return buildOrder({
    id: 7600,
    items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price, quantity: 1, rate: '23' }],
    billing: { first_name: 'Rui', last_name: 'Costa', address_1: 'Rua 1', city: 'X', ...billing },
    meta,
    dateCreatedGmt: '2026-03-10T10:00:00',
  });
}

describe('CIVA art. 36(16): a Portuguese NIF billed to an address abroad stays on the invoice', () => {
  it.each([
    ['a resident abroad, NIF in a NIF field, billed to Spain', { country: 'ES', postcode: '28013' }, '_billing_nif', '123456789', '123456789', 'PT'],
    ['a non-resident 45 NIF, billed to France', { country: 'FR', postcode: '75001' }, '_billing_nif', '451234561', '451234561', 'PT'],
    ['a 45 NIF even in a VAT-number field', { country: 'DE', postcode: '10115' }, '_billing_vat', '451234561', '451234561', 'PT'],
    ['nine digits in a VAT-number field billed to Germany are a German VAT number', { country: 'DE', postcode: '10115' }, '_billing_vat', '123456789', '123456789', 'DE'],
  ])('%s', (_name, billing, key, value, nif, country) => {
    const { request } = documentForOrder(wooOrder(order(billing, [{ key, value }])));
    expect([request.Client.NIF, request.Client.CountryCode]).toEqual([nif, country]);
  });
});

describe('CIVA art. 36(5)(a): a company that typed the consumer NIF 999999990 is held, asking for its NIF', () => {
  it('held with the reason; a private buyer with 999999990 is invoiced as a consumer', () => {
    const company = documentForOrder(wooOrder(order({ country: 'PT', postcode: '1100-053', company: 'Costa Lda' }, [{ key: '_billing_nif', value: '999999990' }])));
    expect(company.hold).toBe(true);
    expect(company.notes.map((n) => n.message).join('\n')).toMatch(/Costa Lda typed the consumer NIF 999999990, but a company's invoice must carry its own NIF \(CIVA art\. 36\(5\)\(a\)\)/);
    const person = documentForOrder(wooOrder(order({ country: 'PT', postcode: '1100-053' }, [{ key: '_billing_nif', value: '999999990' }])));
    expect([person.hold, person.request.Client.NIF]).toEqual([false, '999999990']);
  });
});

describe('DL 28/2019: consumers of EUR 1,000 or more without an address are issued, not held', () => {
  it('issued with a warning, name kept; held only with holdUnidentifiedConsumerInvoices', () => {
    const big = order({ country: 'PT', postcode: '', address_1: '', city: '' }, [], '1200.00');
    const issued = documentForOrder(wooOrder(big));
    expect(issued.hold).toBe(false);
    expect(issued.request.Client.Name).toBe('Rui Costa');
    expect(documentForOrder(wooOrder(big), { holdUnidentifiedConsumerInvoices: true }).hold).toBe(true);
  });
});
