import { documentForOrder } from '../../platforms/woocommerce/documents';
import { isBindingHold } from '../../law/credit-limits';
import type { MappingSettingsInput } from '../../law/mapping-settings';
import type { VatNumberVerdict } from '../../law/vat-number';
import { buildOrder, type Cart } from './support/woo-cart';
import { wooOrder } from '../support/payloads';

/**
 * Issue 26.8, CIVA art. 36(5)(a): an invoice carries the buyer's seat or domicile. A company with a
 * valid NIF and no billing address is held with the reason (a person releases it); a simplified
 * invoice, where lawful, carries only the NIF and needs none (art. 40(2)).
 */
const company = { first_name: 'Rui', last_name: 'Costa', company: 'Livraria Costa Lda', address_1: '', country: 'PT', city: 'Lisboa', postcode: '1100-053' };
const order = (billing: Cart['billing'], nif: string, price = '10.00'): Record<string, unknown> =>
  buildOrder({
    id: 7700,
    items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price, quantity: 1, rate: '23' }],
    billing,
    meta: [{ key: '_billing_nif', value: nif }],
    dateCreatedGmt: '2026-03-10T10:00:00',
  });
const madrid = { first_name: 'Ana', last_name: 'Ruiz', company: 'Libros SL', address_1: '', country: 'ES', city: 'Madrid', postcode: '28013' };
const viesValid: VatNumberVerdict = { countryCode: 'ES', number: 'B12345678', valid: true };

describe('CIVA art. 36(5)(a), 40(2): a business buyer\'s invoice carries its seat or domicile', () => {
  it.each<[string, Cart['billing'], string, MappingSettingsInput, VatNumberVerdict | undefined, string, boolean]>([
    ['art. 36(5)(a): a Portuguese company with a valid NIF and no address: held', company, '503504564', {}, undefined, 'T', true],
    ['art. 36(5)(a): the same company with its address: issued', { ...company, address_1: 'Rua Augusta 100' }, '503504564', {}, undefined, 'T', false],
    ['art. 36(5)(a): an EU company confirmed in VIES, no address: held', madrid, 'ESB12345678', {}, viesValid, 'T', true],
    ['art. 40(2): a simplified invoice (EUR 12.30, under EUR 100) to the company: no address needed', company, '503504564', { documentType: 'S' }, undefined, 'S', false],
    ['art. 40(2) does not reach EUR 123.00 to a company: an invoice, held without the address', company, '503504564', { documentType: 'S' }, undefined, 'T', true],
    ['a consumer (no NIF, under EUR 1,000) without an address: not this rule', { first_name: 'Rui', address_1: '', country: 'PT' }, '', {}, undefined, 'T', false],
  ])('%s', (name, billing, nif, settings, verdict, type, held) => {
    const sale = order(billing, nif, name.includes('123.00') ? '100.00' : '10.00');
    const { request, hold, holds, notes } = documentForOrder(wooOrder(sale), settings, undefined, verdict);
    expect(request.Document.Type).toBe(type);
    expect(hold).toBe(held);
    // A held invoice also says its deadline (invoice-deadline): the reason is the rest.
    expect(holds.map((h) => h.code).filter((c) => c !== 'invoice-deadline')).toEqual(held ? ['business-buyer-address-missing'] : []);
    if (held) {
      // Releasable: a person who added (or vouched for) the seat releases it; only the unlawful holds bind.
      expect(holds.filter(isBindingHold)).toEqual([]);
      expect(notes.map((n) => n.message).join('\n')).toMatch(/has no address on the order: an invoice carries the buyer's seat or domicile \(CIVA art\. 36\(5\)\(a\)\)/);
    }
  });
});
