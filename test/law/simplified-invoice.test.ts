import { MappingSettingsInput } from '../../law/mapping-settings';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import type { VatNumberVerdict } from '../../law/vat-number';
import { buildOrder, Cart } from './support/woo-cart';
import { wooOrder } from '../support/payloads';

/** CIVA art. 40(1): a simplified invoice only where the tax is due in Portugal, whatever the amount. */

function small(billing: Cart['billing'], meta: Cart['meta'] = [], rate?: string): Record<string, unknown> {
  return buildOrder({
    id: 7400,
    items: [{ name: 'Postal ilustrado', sku: 'POS', productId: 1, price: '4.00', quantity: 1, ...(rate ? { rate } : {}) }],
    billing: { first_name: 'Ana', last_name: 'Ruiz', address_1: 'Rua 1', city: 'X', ...billing },
    meta,
    dateCreatedGmt: '2026-03-10T10:00:00',
  });
}

describe('CIVA art. 40(1): simplified invoices only when the tax is due in Portugal', () => {
  const verdict: VatNumberVerdict = { countryCode: 'ES', number: 'B12345678', valid: true };
  it.each<[string, Record<string, unknown>, MappingSettingsInput, VatNumberVerdict | undefined, string, string | undefined]>([
    ['a 4.00 sale taxed in Portugal stays simplified', small({ country: 'PT', postcode: '1100-053' }, [], '23'), {}, undefined, 'S', undefined],
    ['an export (M05) of 4.00 gets a full invoice', small({ country: 'US', postcode: '10001' }), {}, undefined, 'T', 'M05'],
    ['an intra-EU supply (M16) of 4.00 gets a full invoice', small({ country: 'ES', postcode: '28013', company: 'Ruiz SL' }, [{ key: '_billing_vat', value: 'ESB12345678' }]), {}, verdict, 'T', 'M16'],
    ['a reverse-charged service (M40) of 4.00 gets a full invoice', small({ country: 'ES', postcode: '28013', company: 'Ruiz SL' }, [{ key: '_billing_vat', value: 'ESB12345678' }]), { lineTypes: { default: 'S' } }, undefined, 'T', 'M40'],
    ['a service placed abroad (M44) of 4.00 gets a full invoice', small({ country: 'US', postcode: '10001' }), { lineTypes: { default: 'S' }, exemptions: { byProduct: [{ code: 'M44', productIds: [1] }] } }, undefined, 'T', 'M44'],
    ['an exempt domestic service (M07) may stay simplified', small({ country: 'PT', postcode: '1100-053' }), { lineTypes: { default: 'S' }, exemptions: { byProduct: [{ code: 'M07', productIds: [1] }] } }, undefined, 'S', 'M07'],
  ])('%s', (_name, order, settings, vies, type, code) => {
    const { request, notes } = documentForOrder(wooOrder(order), { documentType: 'S', ...settings }, undefined, vies);
    expect([request.Document.Type, request.Document.TaxExemptionReasonCode]).toEqual([type, code]);
    if (type === 'T') expect(notes.map((n) => n.message)).toContain(`Simplified invoice only where the tax is due in Portugal (CIVA art. 40(1)); ${code} sales get a full invoice: type T used`);
  });
});
