import { CreateWaybillRequestSchema } from '../../client/schemas/waybill';
import { MappingSettingsInput } from '../../law/mapping-settings';
import { waybillForOrder } from '../../platforms/woocommerce/documents';
import { orderFixture } from './support/fixtures';
import { wooOrder } from '../support/payloads';

const settings: MappingSettingsInput = {
  waybill: {
    loadAddress: { addressDetail: 'Zona Industrial da Maia, Lote 12', city: 'Maia', postalCode: '4470-122', countryCode: 'PT' },
    leadTimeMinutes: 90,
    vehicleLicence: 'AA-12-BB',
  },
};
// 23:00 UTC on 31 March 2025 is 00:00 on 1 April in Lisbon (summer time): the day changes.
const now = new Date('2025-03-31T23:00:00Z');

describe('waybill from an order', () => {
  it('loads at the shop, goes to the shipping address, leaves after the lead time, in the shop zone', () => {
    const order = orderFixture('pt-002-mixed-23-13-6-incl');
    const { request } = waybillForOrder(wooOrder(order), settings, now);
    expect(() => CreateWaybillRequestSchema.parse(request)).not.toThrow();
    expect(request.Waybill).toMatchObject({
      Type: 'W',
      Date: '2025-04-01',
      LoadDateTime: '2025-04-01T01:30:00',
      LoadAddress: { AddressDetail: 'Zona Industrial da Maia, Lote 12', City: 'Maia', PostalCode: '4470-122', CountryCode: 'PT' },
      DestinationAddress: { AddressDetail: 'Rua de Santa Catarina 312', City: 'Porto', PostalCode: '4000-443', CountryCode: 'PT' },
      VehicleLicence: 'AA-12-BB',
      ExternalId: 'wc-5002-W',
    });
    // Goods only: shipping does not travel.
    expect(request.Waybill.Lines.map((l) => l.Code)).toEqual(['LIV-OSMAIAS', 'AZ-750', 'AUD-BT']);
  });

  it.each([
    ['delivery note by setting', { waybill: { ...settings.waybill, type: 'Y' } }, 'Y'],
    ['waybill by default', settings, 'W'],
  ])('%s', (_name, s, type) => {
    expect(waybillForOrder(wooOrder(orderFixture('pt-001-mainland-23-single')), s as MappingSettingsInput, now).request.Waybill.Type).toBe(type);
  });

  it('uses the billing address when the order has no shipping address', () => {
    const order = orderFixture('pt-001-mainland-23-single');
    order.shipping = { first_name: '', last_name: '', company: '', address_1: '', address_2: '', city: '', state: '', postcode: '', country: '' };
    const { request, notes } = waybillForOrder(wooOrder(order), settings, now);
    expect(request.Waybill.DestinationAddress).toEqual({ AddressDetail: 'Rua Augusta 100', City: 'Lisboa', PostalCode: '1100-053', CountryCode: 'PT' });
    expect(notes.map((n) => n.message)).toContain('No shipping address: the waybill goes to the billing address');
  });

  it.each([
    ['no load address configured', 'pt-001-mainland-23-single', {}, /^Order #5001: no waybill.loadAddress in the mapping settings/],
    ['only services', 'pt-029-virtual-only', settings, /^Order #5029: no goods to transport/],
  ])('fails by name: %s', (_name, fixture, s, message) => {
    expect(() => waybillForOrder(wooOrder(orderFixture(fixture)), s, now)).toThrow(message);
  });
});
